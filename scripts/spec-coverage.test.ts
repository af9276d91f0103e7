import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { callsOf, compare, routesOf } from './spec-coverage.mjs';

/** A small spec in the shape of the real one (its §2 and §7 forms). */
const platform = `# Platform

## 2. Screens and routes

Public routes (no sign-in): / (redirects to /sdk), /web, /electric/330/result.

Project area /project: workbench, data-source. Unknown paths under it show a not-found page.

## 7. The calls it makes

- Sign-in: index/signIn (password encrypted; token kept), index/signUp; user/signOut, getUser.
- Project: createProject, getProjectList.
- Files: file/uploadpartinit, uploadOneFile (multipart, no timeout, with progress), deleteFile.
- Terminal: multipart POST to a separate terminal-service root, 30 s timeout.
- Admin: users (getUserList, addUser); POST logs/page; DELETE logs/delete; menus (GET tree, list; POST, PUT, DELETE menus/{id}); tenant (GET list, POST page, DELETE tenant/{id}).

Payload and response fields for all these calls are not shown.

## 8. Errors
`;
const workflow = `# Workflow

## 2. Screens and routes

| Route | Purpose |
|---|---|
| /workflow/pattern | Decision graph editor |

Feedback-control area: /gfs redirects to /gfs/online-trial.

## 7. Calls

| Area | Calls |
|---|---|
| Solution | create, getPattern |
| train/ | stopTrain |
| trainPolicy, trainParameter | each create, list |
| Tables | table: create, drop; metadata: getTables |
| Files | file/previewCSV, uploadOneFile (multipart), mpuAbortOne |
| Support | template/getTemplateList, overview (getTrainingList, getOverall) |
| Domain | electricShow (pump control list, decisionSuperTemperature); pidData (getPidDataList) |
`;

const CALLS = ['index/signIn', 'index/signUp', 'user/signOut', 'user/getUser', 'project/createProject', 'project/getProjectList', 'file/uploadpartinit', 'file/uploadOneFile', 'file/deleteFile',
  'users/getUserList', 'users/addUser', 'logs/page', 'logs/delete', 'menus/tree', 'menus/list', 'menus/{id}', 'tenant/list', 'tenant/page', 'tenant/{id}',
  'solution/create', 'solution/getPattern', 'train/stopTrain', 'trainPolicy/create', 'trainPolicy/list', 'trainParameter/create', 'trainParameter/list', 'table/create', 'table/drop', 'metadata/getTables',
  'file/previewCSV', 'file/mpuAbortOne', 'template/getTemplateList', 'overview/getTrainingList', 'overview/getOverall', 'electricShow/decisionSuperTemperature', 'pidData/getPidDataList'];
const ROUTES = ['/', '/sdk', '/web', '/electric/330/result', '/project/workbench', '/project/data-source', '/workflow/pattern', '/gfs', '/gfs/online-trial'];

describe('spec-coverage', () => {
  it('reads every form of call the spec writes, and keeps comments and words for a person', () => {
    const both = new Set([...callsOf(platform).calls, ...callsOf(workflow).calls]);
    expect([...both].sort()).toEqual([...CALLS].sort());
    expect(callsOf(workflow).unread).toEqual(['electricShow: pump control list']);
    expect(callsOf(platform).unread).toEqual(['multipart POST to a separate terminal-service root', '30 s timeout']);
  });

  it('reads the routes of section 2, the pages of an area list included', () => {
    expect([...routesOf(platform), ...routesOf(workflow)].sort()).toEqual([...ROUTES, '/project'].sort());
  });

  it('reports what the spec names that the list lacks, and listed names the spec does not write (unless read by hand)', () => {
    const list = {
      calls: [...CALLS.filter((c) => c !== 'table/drop').map((name) => ({ name })), { name: 'table/extra' }, { name: 'electricShow/getPumpControlList', note: 'named in words' }],
      routes: ROUTES.filter((r) => r !== '/web').map((p) => ({ path: p })).concat([{ path: '/workflow/extra' }]),
    };
    const r = compare({ platform, workflow }, list);
    expect(r.callsNotListed).toEqual(['table/drop']);
    expect(r.listedNotNamed).toEqual(['table/extra']);
    expect(r.readByHand).toEqual(['electricShow/getPumpControlList: named in words']);
    expect(r.routesNotListed).toEqual(['/web']);
    expect(r.listedRoutesNotNamed).toEqual(['/workflow/extra']);
  });

  it('exits 1 from the command line when the spec names a call the list lacks, 0 when it names none', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-coverage-'));
    try {
      fs.writeFileSync(path.join(dir, 'platform.md'), platform);
      fs.writeFileSync(path.join(dir, 'workflow.md'), workflow);
      const script = path.join(import.meta.dirname, 'spec-coverage.mjs');
      const full = path.join(dir, 'full.json');
      fs.writeFileSync(full, JSON.stringify({ calls: CALLS.map((name) => ({ name })), routes: ROUTES.map((p) => ({ path: p })) }));
      expect(execFileSync(process.execPath, [script, dir, full], { encoding: 'utf8' })).toContain('calls the spec names that the list lacks: 0');
      const short = path.join(dir, 'short.json');
      fs.writeFileSync(short, JSON.stringify({ calls: CALLS.slice(1).map((name) => ({ name })), routes: ROUTES.map((p) => ({ path: p })) }));
      let status = 0;
      let out = '';
      try {
        execFileSync(process.execPath, [script, dir, short], { encoding: 'utf8' });
      } catch (e) {
        status = (e as { status: number }).status;
        out = (e as { stdout: string }).stdout;
      }
      expect(status).toBe(1);
      expect(out).toContain('index/signIn');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
