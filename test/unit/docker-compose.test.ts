/**
 * docker/compose.yaml cannot be started here (no Docker engine), so what can be checked without
 * one is checked: it parses, every store has a pinned official image and a health check, ports
 * are published on loopback only, and the URLs docbench hands out match the published ports.
 * Where `docker compose` exists, its own validation runs too.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { COMPOSE_FILE, DOCKER_URLS } from '../../src/local/docker.ts';

interface Service {
  image: string;
  ports?: string[];
  healthcheck?: { test: unknown };
  volumes?: string[];
  restart?: string;
}
const compose = parse(readFileSync(COMPOSE_FILE, 'utf8')) as { services: Record<string, Service> };
const hasCompose = spawnSync('docker', ['compose', 'version']).status === 0;

describe('docker/compose.yaml', () => {
  it('has a pinned official image with a health check for every store with a Docker URL', () => {
    for (const store of Object.keys(DOCKER_URLS)) {
      const service = compose.services[store];
      assert.ok(service, `service ${store}`);
      assert.match(service.image, /^[a-z/]+:[\w.-]+$/, `${store} image has a tag`);
      assert.doesNotMatch(service.image, /:latest$/, `${store} image is pinned`);
      assert.ok(service.healthcheck, `${store} has a health check`);
    }
    assert.equal(compose.services['couchbase-init']?.restart, 'no', 'couchbase-init runs once');
  });

  it('publishes every port on 127.0.0.1 only', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const port of service.ports ?? []) assert.match(port, /^127\.0\.0\.1:/, `${name} publishes ${port}`);
    }
  });

  it('hands out URLs on the ports the compose file publishes', () => {
    for (const [store, url] of Object.entries(DOCKER_URLS)) {
      const port = new URL(url).port || (store === 'couchbase' ? '11210' : '');
      const published = (compose.services[store]?.ports ?? []).flatMap((p) => {
        const [, from, to] = /^127\.0\.0\.1:(\d+)(?:-(\d+))?:/.exec(p) ?? [];
        return from
          ? Array.from({ length: Number(to ?? from) - Number(from) + 1 }, (_, i) => String(Number(from) + i))
          : [];
      });
      assert.ok(published.includes(port), `${store}: port ${port} of ${url} is published`);
    }
  });

  it('mounts files that exist', () => {
    for (const service of Object.values(compose.services)) {
      for (const volume of service.volumes ?? []) {
        if (!volume.startsWith('./')) continue;
        assert.ok(existsSync(join(dirname(COMPOSE_FILE), volume.split(':')[0]!)), `${volume} exists`);
      }
    }
  });

  it('passes docker compose config', { skip: hasCompose ? false : 'docker compose is not installed here' }, () => {
    const r = spawnSync('docker', ['compose', '-f', COMPOSE_FILE, 'config', '-q'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  it(
    'docbench up --docker without docker compose is a one-line user error',
    { skip: hasCompose ? 'docker compose is installed: it would start containers' : false },
    () => {
      const r = spawnSync(
        process.execPath,
        [join(import.meta.dirname, '..', '..', 'bin', 'docbench.js'), 'up', '--docker', 'redis'],
        { encoding: 'utf8' },
      );
      assert.equal(r.status, 2, r.stderr);
      // Which check speaks first depends on the machine: no Docker at all, a client without an
      // engine, or an engine without the compose plugin; each names Docker.
      assert.match(
        r.stderr.trim(),
        /^docbench: (--docker: )?(Docker is not installed|no Docker engine answers|Docker with the compose plugin is needed)/,
      );
      assert.equal(r.stderr.trim().split('\n').length, 1);
    },
  );
});
