import { startLocalIndexer } from '../test/support/local-indexer';

// Runs the local indexer in its own process so that it does not share an event loop with the service.
startLocalIndexer({ port: Number(process.argv[2] ?? 0) }).then((indexer) => {
  console.log(indexer.url);
  process.on('SIGTERM', () => void indexer.close().then(() => process.exit(0)));
});
