import type { Readable } from 'node:stream';
import { Router } from '@koa/router';
import { z } from 'zod';
import {
  AppError,
  createSdkLicenceSchema,
  createSdkVersionSchema,
  licenceIdSchema,
  reviewSdkLicenceSchema,
  sdkLicenceListSchema,
  sdkVersionIdSchema,
  LIMITS,
} from '@decisio/domain';
import { jsonBody } from '../../http/body';
import type { AppContext, AppMiddleware, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import { grants } from '../access/service';
import type { LicencesService } from './service';
import type { LicenceSigner } from './signing';
import type { SdkVersionsService } from './versions';

/** JSON body limit of a licence application: a 1 MiB device file as base64 and the rest. */
export const LICENCE_BODY_LIMIT = Math.ceil((LIMITS.deviceFileMaxBytes * 4) / 3) + 64 * 1024;

/**
 * SDK and licence calls. On `router`: `sdkVersion/getSdkVersionList`, `sdkVersion/createSdkVersion`
 * and `sdkVersion/deleteSdkVersion` (`licences:write`), `sdkLicense/getSdkLicenseList` (own;
 * `scope: 'all'` needs `licences:write`), `sdkLicense/reviewSdkLicense` (`licences:write`),
 * `sdkLicense/renewSdkLicense`, `sdkLicense/getLicenceFile`, `sdkLicense/getLicencePublicKey`,
 * and the downloads GET `sdkVersion/downloadSdkVersion?id=`, `sdkLicense/downloadLicenceFile?id=`,
 * `sdkLicense/downloadLicencePublicKey`. On the returned raw router (mounted before the
 * 1 MiB JSON parser): `sdkLicense/createSdkLicense` (device file up to 1 MB) and
 * `sdkVersion/uploadSdkPackage?id=&name=` (the package's bytes as the body).
 */
export function licencesRoutes(
  router: Router<AppState>,
  kit: RouteKit,
  deps: { licences: LicencesService; versions: SdkVersionsService; signer: LicenceSigner },
): Router<AppState> {
  const { licences, versions, signer } = deps;
  const none = kit.validate(z.object({}).strict());
  const listVersions = kit.validate(z.object({ withPackage: z.boolean().default(false) }).strict());
  const createVersion = kit.validate(createSdkVersionSchema);
  const versionId = kit.validate(sdkVersionIdSchema);
  const versionQuery = kit.validate(sdkVersionIdSchema, 'query');
  const list = kit.validate(sdkLicenceListSchema);
  const review = kit.validate(reviewSdkLicenceSchema);
  const byId = kit.validate(licenceIdSchema);
  const actor = (ctx: AppContext) => ({ id: ctx.state.user!.id, tenantId: ctx.state.tenantId! });
  const admin = [kit.auth, kit.tenant, kit.requirePermission('licences:write')] as const;

  router.post('/sdkVersion/getSdkVersionList', kit.auth, kit.tenant, listVersions, reply(async (ctx) => versions.list(listVersions.input(ctx).withPackage)));
  router.post('/sdkVersion/createSdkVersion', ...admin, createVersion, kit.transaction, reply(async (ctx) => versions.create(ctx.state.user!.id, createVersion.input(ctx))));
  router.post('/sdkVersion/deleteSdkVersion', ...admin, versionId, kit.transaction, reply(async (ctx) => versions.remove(versionId.input(ctx).id)));
  router.get('/sdkVersion/downloadSdkVersion', kit.auth, kit.tenant, versionQuery, async (ctx: AppContext) => {
    const file = await versions.download(versionQuery.input(ctx).id);
    ctx.set('Content-Type', 'application/octet-stream');
    ctx.set('Content-Length', String(file.size));
    ctx.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`);
    ctx.body = file.stream;
  });

  router.post(
    '/sdkLicense/getSdkLicenseList',
    kit.auth,
    kit.tenant,
    list,
    reply(async (ctx) => {
      const input = list.input(ctx);
      if (input.scope === 'all' && !grants(ctx.state.user!.permissions, 'licences:write')) throw new AppError('userNotPermission');
      return licences.list(actor(ctx), input);
    }),
  );
  // The signing key is read (or made, once) outside the review's transaction: it must outlive
  // a rolled-back review, and SQLite has one connection for the transaction.
  const signingKey: AppMiddleware = async (_ctx, next) => {
    await signer.publicKey();
    await next();
  };
  router.post(
    '/sdkLicense/reviewSdkLicense',
    ...admin,
    review,
    signingKey,
    kit.transaction,
    reply(async (ctx) => {
      const { id, approve, opinion } = review.input(ctx);
      return licences.review(actor(ctx), id, approve, opinion);
    }),
  );
  router.post('/sdkLicense/renewSdkLicense', kit.auth, kit.tenant, byId, signingKey, kit.transaction, reply(async (ctx) => licences.renew(actor(ctx), byId.input(ctx).id)));
  router.post('/sdkLicense/getLicenceFile', kit.auth, kit.tenant, byId, reply(async (ctx) => licences.licenceFile(actor(ctx), byId.input(ctx).id)));
  router.post('/sdkLicense/getLicencePublicKey', kit.auth, kit.tenant, none, reply(async () => signer.publicKey()));
  // The same two files as downloads (links the browser follows with the session cookie).
  const byIdQuery = kit.validate(licenceIdSchema, 'query');
  const attachment = (ctx: AppContext, name: string, type: string, content: string) => {
    ctx.set('Content-Type', type);
    ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    ctx.body = content;
  };
  router.get('/sdkLicense/downloadLicenceFile', kit.auth, kit.tenant, byIdQuery, async (ctx: AppContext) => {
    const file = await licences.licenceFile(actor(ctx), byIdQuery.input(ctx).id);
    attachment(ctx, file.fileName, 'application/json; charset=utf-8', file.content);
  });
  router.get('/sdkLicense/downloadLicencePublicKey', kit.auth, kit.tenant, async (ctx: AppContext) => {
    attachment(ctx, 'decisio-licence-key.pem', 'application/x-pem-file', (await signer.publicKey()).publicKeyPem);
  });

  const raw = new Router<AppState>({ prefix: '/api' });
  const create = kit.validate(createSdkLicenceSchema);
  raw.post(
    '/sdkLicense/createSdkLicense',
    kit.auth,
    kit.tenant,
    jsonBody(LICENCE_BODY_LIMIT),
    create,
    // A student licence is signed at once (see the review's note on the signing key).
    signingKey,
    kit.transaction,
    reply(async (ctx) => licences.apply(actor(ctx), create.input(ctx))),
  );
  const upload = kit.validate(z.object({ id: z.string().regex(/^[0-9a-f]{32}$/), name: z.string().min(1).max(100) }), 'query');
  raw.post(
    '/sdkVersion/uploadSdkPackage',
    ...admin,
    upload,
    reply(async (ctx) => {
      ctx.req.setTimeout(0);
      const { id, name } = upload.input(ctx);
      return versions.upload(id, name, ctx.req as Readable);
    }),
  );
  return raw;
}
