/**
 * The payloads of the module access kinds, checked at the IPC boundary (their definitions:
 * ./module-access.ts).
 */
import { z } from 'zod';
import { id } from './payload-fields.ts';

const target = { siteid: id, accessID: id, userid: id };
export const moduleAccessGrantSchema = z.object({ kind: z.literal('moduleAccess.grant'), ...target });
export const moduleAccessRevokeSchema = z.object({ kind: z.literal('moduleAccess.revoke'), ...target });
