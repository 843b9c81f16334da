import { isPublicAddress, WebhookTargets } from './webhook-targets';
import { loadConfig } from '../../config/config';
import { NON_PUBLIC_URLS } from './non-public-url-examples';

describe('webhook destinations', () => {
  const targets = (env: Record<string, string> = {}) => {
    const t = new WebhookTargets(loadConfig(env));
    const names: Record<string, string[]> = {
      'public.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
      'localhost.example': ['127.0.0.1'],
      'mixed.example': ['93.184.215.14', '10.0.0.1'],
      'metadata.example': ['169.254.169.254'],
      'mapped.example': ['::ffff:192.168.0.1'],
    };
    t.resolve = (host) =>
      names[host]
        ? Promise.resolve(names[host])
        : Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));
    return t;
  };

  it('classifies with ipaddr.js: public unicast only', () => {
    for (const a of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect([a, isPublicAddress(a)]).toEqual([a, true]);
    for (const a of [
      '127.0.0.1',
      '10.1.1.1',
      '169.254.169.254',
      '100.100.0.1',
      '::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
      'not an ip',
      '::7f00:1',
    ])
      expect([a, isPublicAddress(a)]).toEqual([a, false]);
  });

  it.each(NON_PUBLIC_URLS)('refuses %s', async (url) => {
    await expect(targets().check(url)).resolves.toMatchObject({ ok: false, reason: 'non-public-address' });
  });

  it('resolves names: every address must be public; unresolvable names are refused', async () => {
    const t = targets();
    await expect(t.check('https://public.example/hook')).resolves.toMatchObject({ ok: true, address: '93.184.215.14' });
    for (const host of ['localhost.example', 'mixed.example', 'metadata.example', 'mapped.example'])
      await expect(t.check(`https://${host}/hook`)).resolves.toMatchObject({ ok: false, reason: 'non-public-address' });
    await expect(t.check('https://nowhere.example/hook')).resolves.toMatchObject({ ok: false, reason: 'unresolvable' });
  });

  it('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true turns the address checks off; WEBHOOK_REQUIRE_HTTPS refuses http://', async () => {
    await expect(
      targets({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }).check('http://127.0.0.1:9/x'),
    ).resolves.toMatchObject({
      ok: true,
      address: null,
    });
    const strict = targets({ NODE_ENV: 'production' });
    await expect(strict.check('http://public.example/hook')).resolves.toMatchObject({
      ok: false,
      reason: 'https-required',
    });
    await expect(strict.check('https://public.example/hook')).resolves.toMatchObject({ ok: true });
  });
});
