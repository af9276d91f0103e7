import { AppError, campusEmailSchema, type CodePurpose } from '@decisio/domain';
import type { Database } from '../../db/database';
import type { CodeTarget } from './service';
import { normaliseRecipient } from './service';

/**
 * Whether a code may be sent for this purpose to this recipient:
 * - `signUp`: the e-mail or number is not registered yet (`emailRegistered`, `mobileRegistered`);
 * - `resetPassword`: an account has it (`accountNotRegistered`);
 * - `changeContact`: nobody has it yet (`emailRegistered`, `mobileRegistered`);
 * - `student`: an e-mail ending with edu.cn (`paramInvalid`) that no other account certified
 *   (`campusEmailUsed`).
 */
export async function assertCodeAllowed(db: Database, target: CodeTarget & { purpose: CodePurpose }): Promise<void> {
  const knex = db.executor();
  const recipient = normaliseRecipient(target.channel, target.recipient);
  const column = target.channel === 'email' ? 'email' : 'mobile';
  const taken = async () => Boolean(await knex('users').where(column, recipient).first('id'));
  const registered = () => new AppError(target.channel === 'email' ? 'emailRegistered' : 'mobileRegistered');
  switch (target.purpose) {
    case 'signUp':
    case 'changeContact':
      if (await taken()) throw registered();
      return;
    case 'resetPassword':
      if (!(await taken())) throw new AppError('accountNotRegistered');
      return;
    case 'student': {
      if (target.channel !== 'email' || !campusEmailSchema.safeParse(recipient).success) {
        throw new AppError('paramInvalid', { email: 'validation.campusEmail' });
      }
      const other = await knex('users').where('campus_email', recipient).whereNotNull('student_until').whereNot('id', target.userId ?? '').first('id');
      if (other) throw new AppError('campusEmailUsed');
      return;
    }
    case 'licence':
      // Any address of the applicant's (bound to the signed-in account).
      return;
  }
}
