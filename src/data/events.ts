import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { eventEffects, programEvents, type EventEffect, type ProgramEvent } from '../db/schema';
import type { PageParams } from '../lib/paging';
import { namedBatch } from './named-batch';
import { newestFirstPage } from './tenant-counts';

/**
 * Reads of the events a tenant's backend reported, each with the effects the rules gave it in
 * evaluation order (`position`). Events are written by the evaluation (data/earning-evaluation.ts)
 * and never change or go away, so their list positions `seq` are dense (src/db/sql/earning-rules.sql).
 */

export type EventWithEffects = { event: ProgramEvent; effects: EventEffect[] };
export type EventFilters = { userId?: string; type?: string };

function withEffects(events: readonly ProgramEvent[], effects: readonly EventEffect[]): EventWithEffects[] {
  const byEvent = new Map<string, EventEffect[]>();
  for (const effect of effects) {
    const list = byEvent.get(effect.eventId);
    if (list) list.push(effect);
    else byEvent.set(effect.eventId, [effect]);
  }
  return events.map((event) => ({ event, effects: byEvent.get(event.id) ?? [] }));
}

/** One event of the tenant with its effects, in one D1 round trip. */
export async function findEvent(db: Database, tenantId: string, id: string): Promise<EventWithEffects | undefined> {
  const { events, effects } = await namedBatch(db, {
    events: db
      .select()
      .from(programEvents)
      .where(and(eq(programEvents.tenantId, tenantId), eq(programEvents.id, id)))
      .limit(1),
    effects: db
      .select()
      .from(eventEffects)
      .where(and(eq(eventEffects.eventId, id), eq(eventEffects.tenantId, tenantId)))
      .orderBy(asc(eventEffects.position)),
  });
  return withEffects(events, effects)[0];
}

/**
 * A page of the tenant's events, newest first, with their effects and the total, in one D1 round
 * trip. Unfiltered, the page is a range of positions and the total the newest position (dense);
 * filtered by customer or type, both walk that filter's `(tenant, …, seq)` index.
 */
export async function listEventRows(db: Database, tenantId: string, filters: EventFilters, params: PageParams) {
  const filter = and(
    filters.userId === undefined ? undefined : eq(programEvents.userId, filters.userId),
    filters.type === undefined ? undefined : eq(programEvents.type, filters.type),
  );
  const page = newestFirstPage(db, programEvents, tenantId, filter, params);
  const ofTenant = eq(programEvents.tenantId, tenantId);
  const pageIds = db.select({ id: programEvents.id }).from(programEvents).where(page.where).orderBy(page.orderBy).limit(params.limit).offset(page.offset);
  const { events, total, effects } = await namedBatch(db, {
    events: db.select().from(programEvents).where(page.where).orderBy(page.orderBy).limit(params.limit).offset(page.offset),
    total: filter
      ? db.select({ value: count() }).from(programEvents).where(and(ofTenant, filter))
      : db.select({ value: sql<number>`coalesce(max(${programEvents.seq}), 0)`.mapWith(Number) }).from(programEvents).where(ofTenant),
    effects: db
      .select()
      .from(eventEffects)
      .where(and(eq(eventEffects.tenantId, tenantId), inArray(eventEffects.eventId, pageIds)))
      .orderBy(asc(eventEffects.eventId), asc(eventEffects.position)),
  });
  return { items: withEffects(events, effects), total: total[0]?.value ?? 0 };
}
