#!/usr/bin/env node
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { DEV_PRIVATE_KEY, mintLicense } from '../modules/license/license-token.js';

const USAGE = `Usage: npm run mint-license -- --customer NAME [--days N | --expires YYYY-MM-DD] [--max-agents N] [--key vendor.pem]

Prints a Gatehouse licence. Without --key it is signed with the development key, which a server
accepts only when started with GATEHOUSE_DEV_LICENSES=true (tests and demos). Defaults: 365 days,
25 agents.
`;

function option(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : undefined;
}

function main(argv: string[]): number {
  const customer = option(argv, 'customer');
  if (!customer || argv.includes('--help')) {
    process.stderr.write(USAGE);
    return 2;
  }
  const days = Number(option(argv, 'days') ?? 365);
  const expiresText = option(argv, 'expires');
  const expires = expiresText ? new Date(expiresText) : new Date(Date.now() + days * 86_400_000);
  const maxAgents = Number(option(argv, 'max-agents') ?? 25);
  if (Number.isNaN(expires.getTime()) || !Number.isInteger(maxAgents) || maxAgents < 0) {
    process.stderr.write(`The expiry or the agent count is not valid.\n\n${USAGE}`);
    return 2;
  }
  const keyFile = option(argv, 'key');
  const key = keyFile ? fs.readFileSync(keyFile, 'utf8') : DEV_PRIVATE_KEY;
  process.stdout.write(
    `${mintLicense(
      {
        id: randomUUID(),
        customer,
        issued_at: new Date().toISOString(),
        expires: expires.toISOString(),
        max_agents: maxAgents,
      },
      key,
    )}\n`,
  );
  return 0;
}

process.exit(main(process.argv.slice(2)));
