// The container image (issue 17), checked without a container engine (none runs where Gatehouse is
// developed or tested, so the image is never built here: docs/deploy/container.md). The Dockerfile
// is parsed by dockerfile-ast and linted by dockerfile-utils (the parser and validator of the VS
// Code Docker tools), then its structure is checked: stages, user, health check, ports, and that
// every file it copies exists in the repository after `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Copy, type Dockerfile, DockerfileParser, type ImageTemplate, type Instruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { routeList } from '@gatehouse/contracts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOCKERFILE = path.join(root, 'deploy/container/Dockerfile');
const text = fs.readFileSync(DOCKERFILE, 'utf8');
const dockerfile: Dockerfile = DockerfileParser.parse(text);
const froms = dockerfile.getFROMs();

/** Each stage: its name and instructions (FROM up to the next FROM). */
const stages = froms.map((from, i) => {
  const start = from.getRange().start.line;
  const end = froms[i + 1]?.getRange().start.line ?? Number.MAX_SAFE_INTEGER;
  return {
    name: from.getBuildStage() ?? String(i),
    image: from.getImage() ?? '',
    instructions: dockerfile
      .getInstructions()
      .filter((ins) => ins.getRange().start.line >= start && ins.getRange().start.line < end),
  };
});
const runtime = stages[stages.length - 1];

function args(ins: Instruction): string[] {
  return ins.getArguments().map((a) => a.getValue());
}
function instructions(stage: { instructions: Instruction[] } | undefined, keyword: string): Instruction[] {
  return (stage?.instructions ?? []).filter((ins) => ins.getKeyword() === keyword);
}
/** ENV KEY=VALUE pairs of the runtime stage. */
function runtimeEnv(): Map<string, string> {
  const env = new Map<string, string>();
  for (const ins of instructions(runtime, 'ENV'))
    for (const a of args(ins)) {
      const at = a.indexOf('=');
      if (at > 0) env.set(a.slice(0, at), a.slice(at + 1));
    }
  return env;
}
/** The JSON array of an exec-form CMD or HEALTHCHECK CMD. */
function execForm(ins: Instruction, after = ''): string[] {
  const content = ins.getArgumentsContent() ?? '';
  return JSON.parse(content.slice(content.indexOf('[', content.indexOf(after)))) as string[];
}
function prodDepsRuns(): string {
  return instructions(
    stages.find((s) => s.name === 'prod-deps'),
    'RUN',
  )
    .map((i) => i.getArgumentsContent() ?? '')
    .join('\n');
}
function flag(ins: Instruction, name: string): string | undefined {
  return (
    (ins as Copy)
      .getFlags()
      .find((f) => f.getName() === name)
      ?.getValue() ?? undefined
  );
}

describe('deploy/container/Dockerfile', () => {
  it('has no problem dockerfile-utils reports', () => {
    const problems = validate(text).map((d) => [d.range.start.line + 1, d.message]);
    expect(problems).toEqual([]);
  });

  it('builds in stages and runs the last on a slim Node 20 image with pinned tags', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'prod-deps', 'runtime']);
    const nodeVersion = args(dockerfile.getInitialARGs().find((a) => args(a)[0]?.startsWith('NODE_VERSION='))!)[0];
    expect(nodeVersion).toMatch(/^NODE_VERSION=20\.(19|[2-9]\d)\.\d+$/);
    for (const s of stages) expect(s.image).toMatch(/^node:\$\{NODE_VERSION\}-bookworm(-slim)?$/);
    expect(runtime?.image).toBe('node:${NODE_VERSION}-bookworm-slim');
  });

  it('installs only production dependencies into the runtime and builds (argon2 included) in a stage of its own', () => {
    const runs = (name: string) =>
      stages
        .find((s) => s.name === name)!
        .instructions.filter((i) => i.getKeyword() === 'RUN')
        .map((i) => i.getArgumentsContent() ?? '');
    expect(runs('build').join('\n')).toMatch(/npm ci\b/);
    expect(runs('build').join('\n')).toMatch(/npm run build/);
    expect(runs('prod-deps').join('\n')).toMatch(/npm ci --omit=dev --workspace=@gatehouse\/server/);
    expect(
      instructions(runtime, 'RUN')
        .map((i) => i.getArgumentsContent())
        .join('\n'),
    ).not.toMatch(/npm (ci|install)/);
  });

  it('carries the programs of browser RDP desktops in the runtime, without recommends or apt lists', () => {
    const runs = instructions(runtime, 'RUN')
      .map((i) => i.getArgumentsContent() ?? '')
      .join('\n');
    const install = /apt-get install -y --no-install-recommends ([^&\n]+)/.exec(runs)?.[1]?.trim().split(/\s+/) ?? [];
    for (const program of ['xvfb', 'freerdp2-x11', 'x11vnc', 'xauth', 'ffmpeg']) expect(install).toContain(program);
    expect(runs).toMatch(/rm -rf \/var\/lib\/apt\/lists/);
  });

  it('runs as a numeric user that is not root', () => {
    const users = instructions(runtime, 'USER').map((u) => args(u)[0] ?? '');
    expect(users).toHaveLength(1);
    expect(users[0]).toMatch(/^\d+(:\d+)?$/);
    expect(Number(users[0]?.split(':')[0])).toBeGreaterThan(0);
    // The same user the Helm chart's securityContext names.
    const values = fs.readFileSync(path.join(root, 'deploy/helm/gatehouse/values.yaml'), 'utf8');
    expect(values).toContain(`runAsUser: ${users[0]?.split(':')[0]}`);
  });

  it('checks its health on the liveness route of the contract table', () => {
    const checks = instructions(runtime, 'HEALTHCHECK');
    expect(checks).toHaveLength(1);
    const command = execForm(checks[0]!, 'CMD').join(' ');
    const live = routeList.find((r) => r.method === 'GET' && r.path === '/api/health/live');
    expect(live).toBeDefined();
    expect(command).toContain(`/api/health/live`);
  });

  it('exposes HTTP and SSH on the ports it configures, keeps data in a volume, stops on SIGTERM', () => {
    const env = runtimeEnv();
    const exposed = instructions(runtime, 'EXPOSE').flatMap(args);
    expect(exposed.sort()).toEqual([env.get('GATEHOUSE_SSH_PORT'), env.get('PORT')].sort());
    expect(env.get('HOST')).toBe('0.0.0.0');
    const volumes = instructions(runtime, 'VOLUME').map((v) => v.getArgumentsContent());
    expect(volumes.join(' ')).toContain(env.get('GATEHOUSE_DATA_DIR'));
    expect(instructions(runtime, 'STOPSIGNAL').map(args)).toEqual([['SIGTERM']]);
    expect(execForm(instructions(runtime, 'CMD')[0]!)).toEqual(['node', 'apps/server/dist/main.js']);
  });

  it('bakes in no secret: every ENV is a variable the server reads, none a key, password or URL', () => {
    const config = fs.readFileSync(path.join(root, 'apps/server/src/config.ts'), 'utf8');
    for (const name of runtimeEnv().keys()) {
      if (name === 'NODE_ENV') continue;
      expect(config, name).toMatch(new RegExp(`\\b${name}\\b`));
      expect(name).not.toMatch(/SECRET|PASSWORD|KEY|DATABASE_URL|REDIS_URL|S3_/);
    }
    for (const ins of dockerfile.getARGs()) expect(args(ins)[0]).not.toMatch(/SECRET|PASSWORD|TOKEN|KEY/i);
  });

  it('copies only what exists in the repository after a build, from earlier stages', () => {
    const names = new Set<string>();
    const missing: string[] = [];
    for (const stage of stages) {
      for (const ins of instructions(stage, 'COPY')) {
        const from = flag(ins, 'from');
        const sources = args(ins)
          .filter((a) => !a.startsWith('--'))
          .slice(0, -1);
        if (from) expect(names, `COPY --from=${from}`).toContain(from);
        for (const source of sources) {
          // build's /src and prod-deps' /app are the repository's root laid out again.
          const inRepo = from ? source.replace(/^\/(src|app)\//, '') : source;
          if (inRepo === '.') continue;
          // A workspace's node_modules is made by prod-deps' npm ci, or its mkdir -p when npm nests nothing.
          if (from === 'prod-deps' && inRepo.endsWith('/node_modules')) {
            expect(prodDepsRuns(), source).toMatch(new RegExp(`mkdir -p[^&]*\\b${inRepo}\\b`));
            continue;
          }
          if (!fs.existsSync(path.join(root, inRepo))) missing.push(`${stage.name}: ${source}`);
        }
      }
      names.add(stage.name);
    }
    expect(missing).toEqual([]);
  });

  it('copies the built server, console and the self-contained agent (file, manifest, install script) into the runtime', () => {
    const copied = instructions(runtime, 'COPY').flatMap((i) =>
      args(i)
        .filter((a) => !a.startsWith('--'))
        .slice(0, -1),
    );
    for (const built of [
      '/src/apps/server/dist',
      '/src/apps/web/dist',
      '/src/apps/agent/dist/gatehouse-agent.mjs',
      '/src/apps/agent/dist/gatehouse-agent.json',
      '/src/apps/agent/dist/install.sh',
      '/src/packages/contracts/dist',
      '/src/packages/tunnel/dist',
      '/app/node_modules',
      '/app/apps/server/node_modules',
      '/app/packages/contracts/node_modules',
      '/app/packages/tunnel/node_modules',
    ])
      expect(copied).toContain(built);
  });

  it('sends no node_modules, build output, data or keys in the build context (.dockerignore)', () => {
    const ignore = fs
      .readFileSync(path.join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    for (const p of ['**/node_modules', '**/dist', '.git', 'data', '**/*.pem', '**/*.key']) expect(ignore).toContain(p);
    // …and ignores nothing a COPY from the build context needs.
    const ignored = (file: string) =>
      ignore.some((pattern) => {
        const parts = file.split('/');
        if (pattern.startsWith('**/*')) return file.endsWith(pattern.slice(4));
        if (pattern.startsWith('**/')) return parts.includes(pattern.slice(3));
        if (pattern.endsWith('*')) return parts[0]?.startsWith(pattern.slice(0, -1)) ?? false;
        return parts[0] === pattern;
      });
    const sources = stages.flatMap((stage) =>
      instructions(stage, 'COPY')
        .filter((ins) => !flag(ins, 'from'))
        .flatMap((ins) =>
          args(ins)
            .filter((a) => !a.startsWith('--'))
            .slice(0, -1),
        ),
    );
    expect(sources.length).toBeGreaterThan(5);
    expect(sources.filter((f) => f !== '.' && ignored(f))).toEqual([]);
    expect(ignored('apps/server/dist/main.js') && ignored('data/secret.key') && ignored('x/y.pem')).toBe(true);
  });

  it('is what the validator calls broken when broken (the checks can fail)', () => {
    const broken = text.replace('EXPOSE 8080 2222', 'EXPOSE eighty').replace(/^USER .*$/m, 'USER');
    expect(validate(broken).length).toBeGreaterThanOrEqual(2);
    const parsed: ImageTemplate = DockerfileParser.parse(broken);
    expect(parsed.getFROMs()).toHaveLength(3);
  });
});
