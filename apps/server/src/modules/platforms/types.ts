import type { Selectable } from 'kysely';
import type { PlatformTable } from '../../db/schema.js';

export type PlatformRow = Selectable<PlatformTable>;
