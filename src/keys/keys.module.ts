import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '../database/pg-pool';
import { SeedVault } from './seed-vault';
import { SERVICE_KEYS, ServiceKeys } from './service-keys';

/** Seals plaintext server seeds (and reseals those under older keys) before the app serves. */
@Injectable()
class SeedsAtRestStartup implements OnApplicationBootstrap {
  private readonly logger = new Logger('SeedVault');
  constructor(
    private readonly vault: SeedVault,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(SERVICE_KEYS) private readonly keys: ServiceKeys,
  ) {}
  async onApplicationBootstrap(): Promise<void> {
    const { sealed } = await this.vault.sealAtRest(this.pool);
    this.logger.log(
      `server seeds sealed with key ${this.vault.activeKeyId} (keys from ${this.keys.source})` +
        (sealed > 0 ? `; sealed or resealed ${sealed} stored seed(s) at start` : ''),
    );
  }
}

/** The service's keys (src/keys/service-keys.ts) and the seed vault, for every module. */
@Global()
@Module({})
export class KeysModule {
  static forRoot(keys: ServiceKeys): DynamicModule {
    return {
      module: KeysModule,
      providers: [{ provide: SERVICE_KEYS, useValue: keys }, SeedVault, SeedsAtRestStartup],
      exports: [SERVICE_KEYS, SeedVault],
    };
  }
}
