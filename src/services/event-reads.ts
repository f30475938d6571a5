import { findEvent, listEventRows } from '../data/events';
import { ApiError } from '../lib/errors';
import { pageOf, type Page } from '../lib/paging';
import type { EventListQuery, EventView } from '../schemas/event';
import { toEventView } from '../views/event';
import type { ServiceContext } from './context';

/** Reads of reported events, the same on both surfaces (CONTRACT.md, Events and earning rules); another tenant's event is missing. */

export async function getEvent({ db, tenantId }: ServiceContext, id: string): Promise<EventView> {
  const found = await findEvent(db, tenantId, id);
  if (!found) throw ApiError.notFound('Event');
  return toEventView(found.event, found.effects);
}

/** Newest first, optionally of one customer and one type. */
export async function listEvents({ db, tenantId }: ServiceContext, query: EventListQuery): Promise<Page<EventView>> {
  const { page, limit, user_id: userId, type } = query;
  const { items, total } = await listEventRows(db, tenantId, { userId, type }, { page, limit });
  return pageOf(
    items.map(({ event, effects }) => toEventView(event, effects)),
    total,
    { page, limit },
  );
}
