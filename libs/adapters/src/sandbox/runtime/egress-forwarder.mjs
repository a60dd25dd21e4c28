// Kiln's egress forwarder, run inside an install's sandbox, whose network namespace has only
// loopback (copied into the shared dependency cache so it is visible there):
//
//   node egress-forwarder.mjs [--pass-fds=3,4] <unix-socket> -- <command> [args...]
//
// npm cannot use a proxy on a Unix socket, so this listens on 127.0.0.1 (a port the system picks)
// inside the namespace, forwards every connection byte for byte to the socket of the API's
// registry egress proxy (bound into the sandbox; the proxy decides what may be reached), and runs
// the command with npm's and the usual proxy variables pointing at that port. It exits with the
// command's exit code, 128 + the signal's number when the command was killed. `--pass-fds` hands
// the command descriptors beyond stdio as they are (the screenshotter's Chromium gets its DevTools
// pipe, fds 3 and 4, through it). No dependencies.
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { constants } from 'node:os';

const argv = process.argv.slice(2);
const passFds = argv[0]?.startsWith('--pass-fds=') ? argv.shift().slice('--pass-fds='.length).split(',').map(Number) : [];
const [socketPath, separator, command, ...args] = argv;
if (passFds.some((fd) => !Number.isInteger(fd) || fd < 3)) {
  process.stderr.write('egress-forwarder: --pass-fds takes descriptors from 3 up\n');
  process.exit(2);
}
if (!socketPath || separator !== '--' || !command) {
  process.stderr.write('usage: node egress-forwarder.mjs <unix-socket> -- <command> [args...]\n');
  process.exit(2);
}

const server = createServer((client) => {
  const upstream = connect(socketPath);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  for (const socket of [client, upstream]) {
    socket.once('error', close);
    socket.once('close', close);
  }
  client.pipe(upstream);
  upstream.pipe(client);
});

server.once('error', (e) => {
  process.stderr.write(`egress-forwarder: cannot listen on 127.0.0.1: ${e.message}\n`);
  process.exit(1);
});

server.listen({ host: '127.0.0.1', port: 0 }, () => {
  const proxy = `http://127.0.0.1:${server.address().port}`;
  // The host's proxy settings (any spelling) would send npm elsewhere or around the proxy.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_config_(https[-_])?proxy|npm_config_no[-_]?proxy|https?_proxy|no_proxy)$/i.test(name)),
  );
  Object.assign(env, {
    npm_config_proxy: proxy,
    npm_config_https_proxy: proxy,
    npm_config_noproxy: '',
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
    NO_PROXY: '',
    no_proxy: '',
  });
  const child = spawn(command, args, { stdio: ['inherit', 'inherit', 'inherit', ...passFds], env });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.once('error', (e) => {
    process.stderr.write(`egress-forwarder: ${command}: ${e.message}\n`);
    process.exit(127);
  });
  child.once('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
});
