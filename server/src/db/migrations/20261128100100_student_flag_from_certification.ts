import type { Knex } from 'knex';

/**
 * Data only (issue 18 item 4, the student trial rules): `users.is_student` was set at sign-up from
 * the occupation "student", which is no certificate. Only a campus e-mail code (which sets
 * `student_until`) makes a student now, so accounts never certified lose the flag. Nothing reads
 * the flag for a right (the certification's end date decides), so `down` leaves it as it is.
 */
export async function up(knex: Knex): Promise<void> {
  await knex('users').whereNull('student_until').where('is_student', true).update({ is_student: false });
}

export async function down(): Promise<void> {
  // The occupation-derived values are not restored: they granted nothing.
}
