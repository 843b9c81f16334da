import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { EventStoreModule } from '../event-store/event-store.module';
import { AccountAggregate } from './account-aggregate';
import { AccountCredentials } from './account-credentials.service';
import { AccountSessions } from './account-sessions.service';
import { AccessTokens } from './access-tokens.service';
import { AccountsController } from './accounts.controller';
import { AccountsResolver } from './accounts.resolver';
import { AccountsService } from './accounts.service';
import { SecurityLog } from './security-log.service';
import { SignIn } from './sign-in.service';
import { SignInThrottle, THROTTLE_LIMITS, type ThrottleLimits } from './sign-in-throttle';
import { RELYING_PARTY, WebAuthn, type RelyingParty } from './webauthn';

/** Accounts (docs/accounts.md): usernames, passwords, passkeys, sessions, the security log. */
@Module({
  imports: [EventStoreModule],
  controllers: [AccountsController],
  providers: [
    AccountsService,
    AccountsResolver,
    AccountAggregate,
    AccountCredentials,
    SignIn,
    AccountSessions,
    AccessTokens,
    SecurityLog,
    SignInThrottle,
    WebAuthn,
    {
      provide: RELYING_PARTY,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): RelyingParty => ({
        id: config.WEBAUTHN_RP_ID,
        name: config.WEBAUTHN_RP_NAME,
        origins: config.WEBAUTHN_ORIGINS ?? [`http://localhost:${config.PORT}`],
      }),
    },
    {
      provide: THROTTLE_LIMITS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ThrottleLimits => ({
        accountFree: config.SIGN_IN_ACCOUNT_FREE_ATTEMPTS,
        addressFree: config.SIGN_IN_ADDRESS_FREE_ATTEMPTS,
        baseSeconds: config.SIGN_IN_LOCK_SECONDS,
        maxSeconds: 3600,
      }),
    },
  ],
})
export class AccountsModule {}
