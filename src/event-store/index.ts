export * from './event-store.types';
export * from './event-store.service';
export * from './event-store.module';
export * from './tournament-store.service';
export * from './account-store.service';
export * from './challenge-store.service';
export * from './seek-store.service';
