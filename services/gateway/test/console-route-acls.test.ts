import { describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { routeAcls } from '../src/console/route-acls.ts';

describe('the console reads its ACLs from ADMIN_ROUTES', () => {
  it("gives an admin route's ACLs, and refuses a route the table does not have", () => {
    expect(routeAcls('POST /v1/admin/jobs/retry')).toEqual([ACL.jobsWrite]);
    expect(routeAcls('POST /v1/admin/archives/list')).toEqual([
      ACL.archiveViewAll,
      ACL.archiveTriggerUser,
      ACL.archiveTriggerGuild,
    ]);
    expect(() => routeAcls('GET /v1/admin/jobs/retry')).toThrow(
      '"GET /v1/admin/jobs/retry" is not an ADMIN_ROUTES entry',
    );
  });
});
