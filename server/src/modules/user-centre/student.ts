/**
 * The student certificate as the student trial rules read it (spec platform §6: "A student
 * certificate gives a free trial; student authorisation is verified with a validity date";
 * `STUDENT_TRIAL_RULES` of `@decisio/domain`). Only the certification's end date
 * (`users.student_until`, set by a campus e-mail code in the user centre) makes a student; the
 * occupation chosen at sign-up does not.
 */
import { AppError } from '@decisio/domain';
import type { Knex } from 'knex';
import { toDate } from '../storage/service';

/**
 * The end of `userId`'s student certification, checked against `now`.
 * @throws AppError `studentOnly` (never certified), `studentCertificationExpired` (it ended).
 */
export async function validStudentUntil(knex: Knex | Knex.Transaction, userId: string, now: Date): Promise<Date> {
  const row = (await knex('users').where({ id: userId }).first('student_until')) as { student_until: unknown } | undefined;
  const until = row ? toDate(row.student_until) : null;
  if (!until) throw new AppError('studentOnly');
  if (until.getTime() <= now.getTime()) throw new AppError('studentCertificationExpired');
  return until;
}
