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
// children never outlive it, and so does every orphan in the container (a daemon that left the
// group with setsid and a double fork is a child of PID 1 then: the local host's bubblewrap ends
// those with the command's own PID namespace). The exit code is the program's, or 128 + the
// signal's number.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';

const args = process.argv.slice(2);
const forwardStdin = args[0] === '--stdin';
const argv = args.slice(args.indexOf('--') + 1);
if (argv.length === 0) {
  process.stderr.write('sandbox-supervisor: no program given\n');
  process.exit(126);
}

const child = spawn(argv[0], argv.slice(1), { detached: true, stdio: [forwardStdin ? 'pipe' : 'ignore', 'inherit', 'inherit'] });
const kill = (pid) => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
};
/** Processes whose parent is PID 1 (the container's reaper starts nothing else but its sleep). */
const orphans = () =>
  readdirSync('/proc')
    .filter((name) => /^[0-9]+$/.test(name) && name !== '1')
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === '1';
      } catch {
        return false;
      }
    })
    .map(Number);
const killGroup = () => {
  if (child.pid !== undefined) kill(-child.pid);
  for (const pid of orphans()) kill(pid);
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
