/**
 * One page of a keyset-paginated list, newest first, as Prisma arguments: the rows after the
 * cursor, in (createdAt desc, id desc) order, and one extra row that only tells that more remain.
 * The HTTP layer makes it from `?cursor=&limit=` and cuts the page from the rows a service reads.
 */
export interface PageArgs {
  where: { OR?: ({ createdAt: { lt: Date } } | { createdAt: Date; id: { lt: string } })[] };
  orderBy: [{ createdAt: 'desc' }, { id: 'desc' }];
  take: number;
}
