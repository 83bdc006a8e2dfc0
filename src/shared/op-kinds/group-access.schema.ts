/**
 * The payloads of the group access kinds, checked at the IPC boundary (their definitions:
 * ./group-access.ts).
 */
import { z } from 'zod';
import { id } from './payload-fields.ts';

const target = { siteid: id, groupid: id, userid: id };
export const groupAccessGrantSchema = z.object({ kind: z.literal('groupAccess.grant'), ...target });
export const groupAccessRevokeSchema = z.object({ kind: z.literal('groupAccess.revoke'), ...target });
