import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Db = PrismaClient;
/** The client handed to code running inside `db.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export function createDb(connectionString: string, maxConnections = 10): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: maxConnections }) });
}
