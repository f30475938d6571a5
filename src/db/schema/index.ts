/** Every table the application uses: a shard's (./shard.ts) and the directory's (./directory.ts). */
export * from './shard';
export * from './directory';
