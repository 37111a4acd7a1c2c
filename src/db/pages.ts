/** The Prisma arguments for one page of a list: rows after the cursor, newest first, one extra. */
export interface PageArgs {
  where: { OR?: ({ createdAt: { lt: Date } } | { createdAt: Date; id: { lt: string } })[] };
  orderBy: [{ createdAt: 'desc' }, { id: 'desc' }];
  take: number;
}
