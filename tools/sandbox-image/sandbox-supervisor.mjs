// Runs one of Kiln's processes inside a sandbox container (`docker exec`), as the leader of a
// process group of its own:
//
//   node /kiln/sandbox-supervisor.mjs [--stdin] -- <program> <argument>...
//
// The Docker API cannot signal an exec'd process, so the exec's stdin stands for Kiln's hold on
// it: when Kiln closes the exec's stream (a timeout, Ctrl+C, a stopped dev server, Kiln's own
// death), stdin ends and the whole group is killed. With --stdin what Kiln writes is passed on to
// the program (the dev server's check requests); without it the program's stdin is empty, as a
// command's is on the local host. When the program ends its group goes too, so background
// children never outlive it. The exit code is the program's, or 128 + the signal's number.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const args = process.argv.slice(2);
const forwardStdin = args[0] === '--stdin';
const argv = args.slice(args.indexOf('--') + 1);
if (argv.length === 0) {
  process.stderr.write('sandbox-supervisor: no program given\n');
  process.exit(126);
}

const child = spawn(argv[0], argv.slice(1), { detached: true, stdio: [forwardStdin ? 'pipe' : 'ignore', 'inherit', 'inherit'] });
const killGroup = () => {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
};
if (forwardStdin) {
  child.stdin.on('error', () => undefined);
  process.stdin.pipe(child.stdin);
} else {
  process.stdin.resume();
}
process.stdin.on('end', () => {
  killGroup();
  process.exit(137);
});
child.on('error', (error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(error.code === 'ENOENT' ? 127 : 126);
});
child.on('exit', (code, signal) => {
  killGroup();
  process.exit(code ?? 128 + (signal === null ? 9 : (constants.signals[signal] ?? 9)));
});
