// A child of the fault suite that opens many TCP connections to a port and never sends a byte (as a
// scanner, a stalled client or a slow-loris does), from a given loopback address. It reads what the
// server sends, counts the connections the server closes, prints its counts as a JSON line every
// second, and closes everything and exits when its stdin ends.
import net from 'node:net';

const { port, count, localAddress, concurrency = 256 } = JSON.parse(process.argv[2]);
const sockets = new Set();
const state = { attempted: 0, open: 0, maxOpen: 0, closedByServer: 0, closeAfterMs: [], errors: {}, done: false };
let releasing = false;

function openOne() {
  state.attempted += 1;
  const socket = net.connect({ port, host: '127.0.0.1', localAddress });
  let connectedAt = 0;
  socket.on('connect', () => {
    connectedAt = Date.now();
    state.open += 1;
    state.maxOpen = Math.max(state.maxOpen, state.open);
    sockets.add(socket);
    next();
  });
  socket.on('data', () => undefined);
  socket.on('error', (error) => {
    if (!connectedAt) {
      state.errors[error.code ?? error.message] = (state.errors[error.code ?? error.message] ?? 0) + 1;
      next();
    }
  });
  socket.on('close', () => {
    if (!connectedAt) return;
    sockets.delete(socket);
    state.open -= 1;
    if (!releasing) {
      state.closedByServer += 1;
      state.closeAfterMs.push(Date.now() - connectedAt);
    }
  });
}

let inFlight = 0;
function next() {
  inFlight -= 1;
  pump();
}
function pump() {
  while (!releasing && inFlight < concurrency && state.attempted < count) {
    inFlight += 1;
    openOne();
  }
  if (state.attempted >= count && inFlight <= 0) state.done = true;
}

const report = () => {
  const { closeAfterMs, ...rest } = state;
  const sorted = [...closeAfterMs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? null;
  process.stdout.write(`${JSON.stringify({ ...rest, closeMedianMs: median, closeMaxMs: sorted.at(-1) ?? null })}\n`);
};
const timer = setInterval(report, 1000);
pump();
process.stdin.resume();
process.stdin.on('end', () => {
  releasing = true;
  clearInterval(timer);
  report();
  for (const socket of sockets) socket.destroy();
  setTimeout(() => process.exit(0), 200);
});
