/** Live reads of one user that the cache does not hold whole: the user's e-mail addresses, every page. */
import type { ParsedArg, RequestResults } from '../../shared/ipc.ts';
import { WrapperKey } from '../../shared/api/wire.ts';
import { normalizeEmail, type EmailRecord } from '../../shared/records.ts';
import type { ProfilesService } from './profiles.ts';

export function createUsersService(session: ProfilesService, now: () => Date) {
  return {
    async userDetail(arg: ParsedArg<'users:detail'>): Promise<RequestResults['users:detail']> {
      const { client } = await session.activeClient();
      const emails: EmailRecord[] = [];
      const limit = 1000;
      for (let startrow = 1; ; startrow += limit) {
        const page = await client.getPage(`/users/${arg.userid}/emails`, WrapperKey.emails, 'email', {
          startrow,
          limit,
        });
        emails.push(...page.items.map((e) => normalizeEmail(e, arg.userid)));
        if (page.empty || page.items.length < limit) break;
      }
      return { userid: arg.userid, emails, fetchedAt: now().toISOString() };
    },
  };
}
