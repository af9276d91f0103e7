/** A small server plugin used by the tests: a table, a seed, guarded routes and a job kind. */
import { EventEmitter } from 'node:events';
import { z } from 'zod';
import { AppError } from '@decisio/domain';
import { defineServerPlugin } from '@decisio/sdk-plugin/server';
import { DEFAULT_TENANT_ID } from '../db/ids';

/** Emits `start` (with the request id) when an `acmeNotes/slow` call reaches its handler. */
export const slowCalls = new EventEmitter();

export const samplePlugin = defineServerPlugin({
  id: 'acme.notes',
  migrations: [
    {
      name: '20261201000000_create_acme_notes',
      up: (knex) =>
        knex.schema.createTable('acme_notes', (t) => {
          t.string('id', 32).primary();
          t.string('tenant_id', 32).notNullable().index();
          t.string('text', 200).notNullable();
        }),
      down: (knex) => knex.schema.dropTable('acme_notes'),
    },
  ],
  seeds: [{ name: 'welcome', run: (knex) => knex('acme_notes').insert({ id: '1'.repeat(32), tenant_id: DEFAULT_TENANT_ID, text: 'welcome' }) }],
  jobKinds: [{ kind: 'acme.notes.count', run: async (payload) => ({ echoed: payload }) }],
  routes(router, ctx) {
    const noteBody = ctx.validate(z.object({ text: z.string().min(1).max(200) }));
    router.post('/acmeNotes/create', ctx.auth, ctx.tenant, noteBody, ctx.transaction, async (call) => {
      const { text } = noteBody.input(call);
      const id = ctx.newId();
      await call.db('acme_notes').insert({ id, tenant_id: call.user!.tenantId, text });
      if (text === 'rollback') throw new AppError('failure');
      return { id, text };
    });
    router.get('/acmeNotes/list', ctx.auth, ctx.tenant, ctx.requirePermission('users:read'), async (call) => {
      const rows = (await call.db('acme_notes').where('tenant_id', call.user!.tenantId).orderBy('text')) as { text: string }[];
      return rows.map((r) => r.text);
    });
    router.post('/acmeNotes/boom', () => {
      throw new Error('secret internal detail');
    });
    const slowBody = ctx.validate(z.object({ ms: z.number().int().min(0).max(5000) }));
    router.post('/acmeNotes/slow', slowBody, async (call) => {
      slowCalls.emit('start', call.requestId);
      await new Promise((r) => setTimeout(r, slowBody.input(call).ms));
      return { slept: slowBody.input(call).ms, requestId: call.requestId };
    });
  },
});
