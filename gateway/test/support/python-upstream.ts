import { spawn } from 'node:child_process';
import path from 'node:path';

/** The Python http.server stand-in (python-upstream.py) as a child process. */
export interface PythonUpstream {
  url: string;
  stop(): Promise<void>;
}

/** Starts `python3 <script>` (a file beside this one) and resolves with its URL once it prints its port. */
export function startPythonUpstream(script = 'python-upstream.py'): Promise<PythonUpstream> {
  const child = spawn('python3', [path.join(__dirname, script)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`python3 ${script} did not start within 10 s`)), 10_000);
    child.once('error', (err) => reject(new Error(`python3 is needed for this test: ${err.message}`)));
    child.stdout.once('data', (chunk: Buffer) => {
      clearTimeout(timer);
      resolve({
        url: `http://127.0.0.1:${chunk.toString().trim()}`,
        stop: async () => {
          child.kill('SIGKILL');
          await exited;
        },
      });
    });
  });
}
