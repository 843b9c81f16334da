import { Module } from '@nestjs/common';
import { OAuthController } from './oauth.controller';
import { OAuthResolver } from './oauth.resolver';
import { OAuthService } from './oauth.service';

/** OAuth 2.1 for third-party apps (docs/oauth.md): clients, consent, tokens, revocation, metadata. */
@Module({
  controllers: [OAuthController],
  providers: [OAuthService, OAuthResolver],
  exports: [OAuthService],
})
export class OAuthModule {}
