import { execFileSync, spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';

// The container images build where a Docker daemon is available (skipped elsewhere, saying so).

const docker = spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0;

test('the app and worker images build (Dockerfile)', async () => {
  test.skip(!docker, 'no Docker daemon on this machine');
  test.setTimeout(1_200_000);
  for (const target of ['app', 'worker']) {
    execFileSync(
      'docker',
      [
        'build',
        '--target',
        target,
        '--build-arg',
        'NEXT_PUBLIC_COMPANY_NAME=Test Ltd',
        '-t',
        `chamspy-${target}:test`,
        '.',
      ],
      { stdio: 'inherit' },
    );
    const user = execFileSync('docker', ['run', '--rm', '--entrypoint', 'id', `chamspy-${target}:test`, '-un']);
    expect(user.toString().trim()).toBe('node');
  }
});
