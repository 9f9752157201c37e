#!/usr/bin/env node
import net from 'node:net';
import { pipeline } from 'node:stream';
import { AGENT_CREDENTIAL_HEADER, AGENT_ID_HEADER, TOKEN_HEADER } from '@gatehouse/contracts';
import { NO_DELAY, WebSocketDuplex, maskOptions, noDelay } from '@gatehouse/tunnel';
import WebSocket from 'ws';
import { askPassword } from './ask-password.js';
import { runVerify } from './evidence/verify-bundle.js';
import { StateDir } from './state.js';

const USAGE = `Usage: gatehouse tunnel <definition name or id> --server URL [options]
       gatehouse verify BUNDLE --key FINGERPRINT_OR_PUBLIC_KEY   (gatehouse verify --help)

  --server URL            the Gatehouse server                                  (GATEHOUSE_SERVER)
  --email E --password P  sign in as a user (no password: asked for)            (GATEHOUSE_EMAIL, GATEHOUSE_PASSWORD)
  --token T               or use a token from a signed-in session               (GATEHOUSE_TOKEN)
  --agent-state-dir DIR   for agent tunnels: open it as this enrolled agent (give the definition id)
  --local-port N          local port to listen on (default: the definition's port, or any free one)
  --bind ADDRESS          local address to listen on (default 127.0.0.1)`;

type Definition = { id: string; name: string; type: string; port: number; host: { hostname: string } };

function flags(argv: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) {
      out.set('definition', arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split('=', 2);
    out.set(name ?? '', inline ?? argv[(i += 1)] ?? '');
  }
  return out;
}

async function signIn(server: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${server}/api/login?include_auth_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { message?: string; response?: { user?: { authentication_token?: string } } };
  const token = body.response?.user?.authentication_token;
  if (!res.ok || !token) throw new Error(`Sign-in refused: ${body.message ?? res.status}`);
  return token;
}

async function findDefinition(server: string, token: string, wanted: string): Promise<Definition> {
  const res = await fetch(`${server}/api/tunneldefinition`, { headers: { [TOKEN_HEADER]: token } });
  if (!res.ok) throw new Error(`Could not list your tunnels (HTTP ${res.status}).`);
  const lists = (await res.json()) as Record<string, Definition[]>;
  const all = [...(lists.rdp ?? []), ...(lists.generic ?? []), ...(lists.agent ?? [])];
  const found = all.find((d) => d.id === wanted || d.name.toLowerCase() === wanted.toLowerCase());
  if (!found)
    throw new Error(
      `No rdp or generic tunnel named ${wanted} admits you. Yours: ${all.map((d) => d.name).join(', ') || 'none'}.`,
    );
  return found;
}

async function main(argv: string[]): Promise<number> {
  // Offline, and no connection to any server: the evidence bundle's verifier.
  if (argv[0] === 'verify') return runVerify(argv.slice(1));
  if (argv[0] !== 'tunnel' || argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return argv[0] === 'tunnel' ? 0 : 1;
  }
  const f = flags(argv.slice(1));
  const server = (f.get('server') ?? process.env.GATEHOUSE_SERVER ?? '').replace(/\/+$/, '');
  const wanted = f.get('definition');
  if (!server || !wanted) {
    process.stderr.write(`Name a tunnel and a server.\n\n${USAGE}\n`);
    return 1;
  }
  const headers: Record<string, string> = {};
  let definitionId = wanted;
  let label = wanted;
  let defaultPort = 0;
  const agentState = f.get('agent-state-dir');
  if (agentState) {
    const identity = new StateDir(agentState).identity();
    if (!identity) throw new Error(`${agentState} holds no agent identity: enrol the agent first.`);
    headers[AGENT_ID_HEADER] = identity.id;
    headers[AGENT_CREDENTIAL_HEADER] = identity.credential;
  } else {
    const email = f.get('email') ?? process.env.GATEHOUSE_EMAIL ?? '';
    const token =
      f.get('token') ??
      process.env.GATEHOUSE_TOKEN ??
      (await signIn(
        server,
        email,
        // No password given: asked at a hidden prompt (or read as stdin's first line), never in the shell's history.
        f.get('password') ?? process.env.GATEHOUSE_PASSWORD ?? (await askPassword(`Password for ${email}: `)),
      ));
    headers[TOKEN_HEADER] = token;
    const definition = await findDefinition(server, token, wanted);
    definitionId = definition.id;
    label = `${definition.name} (${definition.host.hostname}:${definition.port})`;
    defaultPort = definition.port;
  }
  const url = `${server.replace(/^http/, 'ws')}/api/tunnel/connect?definition=${encodeURIComponent(definitionId)}`;
  // Nagle off on both of each connection's sockets: keystrokes through a tunnel are small writes.
  const listener = net.createServer({ allowHalfOpen: true, ...NO_DELAY }, (accepted) => {
    const socket = noDelay(accepted);
    const ws = new WebSocket(url, { headers, maxPayload: 1024 * 1024, ...maskOptions(url) });
    ws.on('upgrade', (res) => noDelay(res.socket));
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      let told = false;
      const tell = () => {
        if (told) return;
        told = true;
        let message: string | undefined;
        try {
          message = (JSON.parse(text) as { message?: string }).message;
        } catch {
          message = undefined;
        }
        process.stderr.write(`Tunnel refused: ${message ?? `HTTP ${res.statusCode}`}\n`);
        socket.destroy();
      };
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', tell);
      res.on('close', tell);
    });
    ws.on('error', (error) => {
      process.stderr.write(`Tunnel error: ${error.message}\n`);
      socket.destroy();
    });
    // The server ends a tunnel with a reason (rights withdrawn, terminated, RDP that is not filmed): say it.
    ws.on('close', (code: number, reason: Buffer) => {
      // Control characters never reach the terminal, whoever wrote the reason.
      // eslint-disable-next-line no-control-regex
      const text = reason.toString('utf8').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
      if (code >= 4000 && text.trim()) process.stderr.write(`Tunnel closed: ${text}\n`);
    });
    ws.on('open', () => {
      const stream = new WebSocketDuplex(ws);
      pipeline(socket, stream, () => undefined);
      pipeline(stream, socket, () => undefined);
    });
  });
  const bind = f.get('bind') ?? '127.0.0.1';
  const port = Number(f.get('local-port') ?? defaultPort);
  await new Promise<void>((resolve, reject) => {
    listener.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' && !f.get('local-port')) listener.listen(0, bind, resolve);
      else reject(error);
    });
    listener.listen(port, bind, resolve);
  });
  const address = listener.address() as net.AddressInfo;
  process.stdout.write(`Tunnel ${label}: listening on ${address.address}:${address.port}\n`);
  await new Promise<void>((resolve) => {
    process.on('SIGINT', resolve);
    process.on('SIGTERM', resolve);
  });
  listener.close();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  },
);
