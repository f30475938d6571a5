/**
 * Which roles may do what: the Worker's own table (src/domain/permissions.ts, pure), so the CMS
 * hides exactly what the API would refuse. The API still decides; its message would show.
 */
export { can, permissions, type Permission } from '../../../src/domain/permissions';
