/**
 * The payloads of the email kinds, checked at the IPC boundary (their definitions:
 * ./email.ts).
 */
import { z } from 'zod';
import { id, text } from './payload-fields.ts';

export const emailAddSchema = z.object({ kind: z.literal('email.add'), userid: id, email: text(320) });
export const emailRemoveSchema = z.object({ kind: z.literal('email.remove'), userid: id, emailid: id });
