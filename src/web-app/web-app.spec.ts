import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { SERVICE_WORKER_CSP, WEB_APP_CSP, findWebDist, registerWebApp } from './web-app';

function builtDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'fairdice-web-app-'));
  const dist = join(root, 'web', 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>fairdice</title>');
  writeFileSync(join(dist, 'assets', 'app-abc.js'), 'console.log(1)');
  writeFileSync(join(dist, 'assets', 'app-abc.css'), 'body{}');
  writeFileSync(join(dist, 'sw.js'), "self.addEventListener('push',()=>{})");
  return root;
}

describe('the web client files (src/web-app)', () => {
  it('serves the page at / (no-cache, own-origin CSP) and the hashed assets as immutable', async () => {
    const root = builtDir();
    const dist = findWebDist(join(root, 'src', 'web-app'));
    expect(dist).toBe(join(root, 'web', 'dist'));
    const app = Fastify();
    registerWebApp(app, dist);
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBe(WEB_APP_CSP);
    expect(page.headers['cache-control']).toBe('no-cache');
    const js = await app.inject({ method: 'GET', url: '/assets/app-abc.js' });
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.headers['cache-control']).toContain('immutable');
    const css = await app.inject({ method: 'GET', url: '/assets/app-abc.css' });
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    const missing = await app.inject({ method: 'GET', url: '/assets/../index.html' });
    expect(missing.statusCode).toBe(404);
    const unknown = await app.inject({ method: 'GET', url: '/assets/nope.js' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    await app.close();
  });

  it('serves the page at /oauth/authorize too, query and all: the OAuth consent page (docs/oauth.md)', async () => {
    const app = Fastify();
    registerWebApp(app, findWebDist(join(builtDir(), 'src', 'web-app')));
    const page = await app.inject({ method: 'GET', url: '/oauth/authorize?response_type=code&client_id=fdc_x' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBe(WEB_APP_CSP);
    expect(page.body).toContain('<title>fairdice</title>');
    expect((await app.inject({ method: 'GET', url: '/oauth/other' })).statusCode).toBe(404);
    await app.close();
  });

  it('serves the service worker at /sw.js: JavaScript, no-cache, scope / allowed, a policy of its own', async () => {
    const app = Fastify();
    registerWebApp(app, findWebDist(join(builtDir(), 'src', 'web-app')));
    const sw = await app.inject({ method: 'GET', url: '/sw.js' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['content-type']).toMatch(/^text\/javascript/);
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['service-worker-allowed']).toBe('/');
    expect(sw.headers['content-security-policy']).toBe(SERVICE_WORKER_CSP);
    expect(sw.body).toContain("addEventListener('push'");
    await app.close();
  });

  it('answers /sw.js with a ROUTE_NOT_FOUND problem for a build without a service worker', async () => {
    const root = builtDir();
    rmSync(join(root, 'web', 'dist', 'sw.js'));
    const app = Fastify();
    registerWebApp(app, findWebDist(join(root, 'src', 'web-app')));
    const res = await app.inject({ method: 'GET', url: '/sw.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    await app.close();
  });

  it('answers / with a ROUTE_NOT_FOUND problem saying how to build it when web/dist is missing', async () => {
    const app = Fastify();
    registerWebApp(app, null);
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND', detail: expect.stringContaining('npm run build') });
    await app.close();
  });
});
