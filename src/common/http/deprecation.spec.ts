import { Controller, Get, Query } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { completeOpenApiDocument } from '../openapi/document';
import { Deprecated, deprecationHeaders } from './deprecation';

@Controller()
class ExampleController {
  @Get('old')
  @Deprecated({ since: '2026-12-01', sunset: '2027-06-01' })
  old() {
    return { ok: true };
  }

  @Get('list')
  @Deprecated({ since: '2026-12-01', params: ['offset'] })
  list(@Query('offset') offset?: string, @Query('cursor') cursor?: string) {
    return { offset: offset ?? null, cursor: cursor ?? null };
  }

  @Get('current')
  current() {
    return { ok: true };
  }
}

describe('Deprecated (REST deprecation headers)', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    const module = await Test.createTestingModule({ controllers: [ExampleController] }).compile();
    app = module.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });
  afterAll(() => app.close());

  it('announces a deprecated operation with Deprecation, Sunset and Link', async () => {
    const res = await app.inject({ method: 'GET', url: '/old' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBe(`@${Date.UTC(2026, 11, 1) / 1000}`);
    expect(res.headers.sunset).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(res.headers.link).toMatch(/rel="deprecation"/);
  });

  it('announces a deprecated parameter only when it is used', async () => {
    const used = await app.inject({ method: 'GET', url: '/list?offset=20' });
    expect(used.headers.deprecation).toBeDefined();
    expect(used.headers.sunset).toBeUndefined();
    const unused = await app.inject({ method: 'GET', url: '/list?cursor=abc' });
    expect(unused.headers.deprecation).toBeUndefined();
    expect((await app.inject({ method: 'GET', url: '/current' })).headers.deprecation).toBeUndefined();
  });

  it('marks them deprecated in OpenAPI, with the headers declared', () => {
    const doc = completeOpenApiDocument(
      SwaggerModule.createDocument(app, new DocumentBuilder().setOpenAPIVersion('3.1.0').build()),
      { webhooks: {}, webhookSchemas: {} },
    ) as unknown as Record<string, any>;
    const old = doc.paths['/old'].get;
    expect(old.deprecated).toBe(true);
    expect(Object.keys(old.responses['200'].headers)).toEqual(
      expect.arrayContaining(['Deprecation', 'Sunset', 'Link']),
    );
    const list = doc.paths['/list'].get;
    expect(list.deprecated).toBeUndefined();
    expect(list.parameters.find((p: { name: string }) => p.name === 'offset').deprecated).toBe(true);
    expect(list.parameters.find((p: { name: string }) => p.name === 'cursor').deprecated).toBeUndefined();
    expect(doc.paths['/current'].get.deprecated).toBeUndefined();
    expect(JSON.stringify(doc)).not.toContain('x-fairdice');
  });

  it('refuses bad dates when the decorator is applied', () => {
    expect(() => deprecationHeaders({ since: 'soon' })).toThrow(/not an ISO date/);
    expect(() => Deprecated({ since: '2026-12-01', sunset: '2026-01-01' })).toThrow(/after since/);
  });
});
