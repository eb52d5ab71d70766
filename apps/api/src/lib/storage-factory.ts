import path from 'node:path';
import type { Config } from '../config';
import { localDiskStorage, type FileStorage } from './storage';
import { s3Storage } from './storage-s3';

/** The server's storage: the bucket when S3_BUCKET is set, else DATA_DIR/uploads on the local disk. */
export function createStorage(config: Pick<Config, 'dataDir' | 's3'>): FileStorage {
  return config.s3 ? s3Storage(config.s3) : localDiskStorage(path.join(config.dataDir, 'uploads'));
}
