import { spawn } from 'node:child_process';
import { redisReady } from '../../support/redis-server';

// A CI run once failed with "redis-server :65535 exited with code 1: " and no reason: 'exit' had
// come before its pipes were read (3 in 400 starts beside two busy loops). Here a grandchild keeps
// the pipes and writes the reason after the exit, so the order is the bad one every time.
describe('waiting for a redis-server to be ready', () => {
  it('when it exits before its pipes are read, then the refusal still carries what it wrote last', async () => {
    const child = spawn('sh', ['-c', '(sleep 0.2; echo "# Fatal: port number too high") & exit 1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    await expect(redisReady(child, 'redis-server :65535')).rejects.toThrow(/^redis-server :65535 exited with code 1 before it was ready: # Fatal: port number too high/);
  });

  it('when it says it accepts connections, then the wait ends', async () => {
    const child = spawn('sh', ['-c', 'echo "* Ready to accept connections tcp"; exec sleep 5'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await expect(redisReady(child, 'redis-server :1')).resolves.toBeUndefined();
    } finally {
      child.kill('SIGKILL');
    }
  });
});
