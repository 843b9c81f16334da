import { Global, Module } from '@nestjs/common';
import { CommandHandler } from './command-handler';

/** The one command handler, for every aggregate's module (games, tournaments, …). */
@Global()
@Module({ providers: [CommandHandler], exports: [CommandHandler] })
export class CommandsModule {}
