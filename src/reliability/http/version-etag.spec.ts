import { Controller, Get, Post } from '@nestjs/common';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import Fastify from 'fastify';
import { registerVersionETags, versionETags } from './version-etag';

describe('version ETags', () => {
  const app = Fastify();
  beforeAll(async () => {
    registerVersionETags(app);
    const marked = { config: { versionETag: true } };
    app.get('/game', marked, () => ({ id: 'g1', version: 7, status: 'playing' }));
    app.get('/compact', marked, () => ({ gameId: 'g1', version: 9, events: [] }));
    app.get('/own-etag', marked, (_req, reply) => {
      void reply.header('etag', '"custom"');
      return { id: 'g1', version: 7 };
    });
    app.get('/refused', marked, (_req, reply) => reply.code(409).send({ id: 'g1', version: 7 }));
    app.get('/no-version', marked, () => ({ id: 'g1', version: '7' }));
    app.get('/unmarked', () => ({ id: 'g1', version: 7 }));
    await app.ready();
  });
  afterAll(() => app.close());

  it('a game answer of a marked route gets ETag "<version>" and stays JSON', async () => {
    const res = await app.inject('/game');
    expect(res.headers.etag).toBe('"7"');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual({ id: 'g1', version: 7, status: 'playing' });
  });

  it('a compact answer gets its ETag, media type and Preference-Applied', async () => {
    const res = await app.inject('/compact');
    expect(res.headers.etag).toBe('"9"');
    expect(res.headers['content-type']).toBe('application/vnd.fairdice.command-events+json; charset=utf-8');
    expect(res.headers['preference-applied']).toBe('return=minimal');
  });

  it('keeps an ETag the handler set, and sets none on a refusal, a non-numeric version or an unmarked route', async () => {
    expect((await app.inject('/own-etag')).headers.etag).toBe('"custom"');
    expect((await app.inject('/refused')).headers.etag).toBeUndefined();
    expect((await app.inject('/no-version')).headers.etag).toBeUndefined();
    expect((await app.inject('/unmarked')).headers.etag).toBeUndefined();
  });

  it('versionETags marks every route handler of a controller, keeping its route config', () => {
    @Controller('things')
    class ThingsController {
      @Get(':id')
      get() {
        return null;
      }
      @Post(':id/poke')
      poke() {
        return null;
      }
      helper() {
        return null;
      }
    }
    const handlerOf = (name: 'get' | 'poke' | 'helper') =>
      (ThingsController.prototype as unknown as Record<string, object>)[name];
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { other: 1 }, handlerOf('poke'));
    versionETags(ThingsController);
    const config = (name: 'get' | 'poke' | 'helper') =>
      Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handlerOf(name)) as unknown;
    expect(config('get')).toEqual({ versionETag: true });
    expect(config('poke')).toEqual({ other: 1, versionETag: true });
    expect(config('helper')).toBeUndefined();
  });

  it('refuses a controller without routes (a call placed before its routes are defined)', () => {
    class Empty {}
    expect(() => versionETags(Empty)).toThrow(/no routes/);
  });
});
