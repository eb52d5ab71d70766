import path from 'node:path';
import type { Config } from '../config';
import { localDiskStorage, type FileStorage } from './storage';

/**
 * The server's storage: the bucket when S3_BUCKET is set, else DATA_DIR/uploads on the local disk. The AWS SDK
 * is loaded only when a bucket is configured: it is a second of start-up time the embedded default does not need.
 */
export async function createStorage(config: Pick<Config, 'dataDir' | 's3'>): Promise<FileStorage> {
  if (!config.s3) return localDiskStorage(path.join(config.dataDir, 'uploads'));
  const { s3Storage } = await import('./storage-s3');
  return s3Storage(config.s3);
}
