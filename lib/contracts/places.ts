import { z } from 'zod';

/**
 * The map's place labels (`GET /other/places`): the query and the answer once, as zod schemas. The route validates and
 * documents with them (server/api/routes/lookups.ts), the service returns their types
 * (server/services/locate/places.ts) and the map reads them (components/dashboard/place-labels.tsx).
 * docs/decisions/0010-one-contract-per-payload.md.
 *
 * A query names a block of Web Mercator tiles (the XYZ scheme of OpenStreetMap's "Slippy map tilenames", which
 * Leaflet's `map.project` and tile layers use): tile `x` counts 0 … 2^z − 1 eastwards from 180° W, `y` southwards from
 * 85.0511° N. A block rather than free bounds, so that the same view asks the same URL (an answer is cached a day) and
 * one answer stays small.
 */

/** The zooms that get labels: below 9 a frame holds too many places to choose from without their population. */
export const PLACE_LABEL_ZOOMS = { min: 9, max: 18 } as const;

/** At most this many tiles (256 px each) in one query: a 1280 × 448 px map with a quarter of margin needs 28. */
export const MAX_LABEL_TILES = 48;

const tile = z.coerce.number().int().min(0);

/** `GET /other/places`: the tiles from (`x0`, `y0`) to (`x1`, `y1`), both included, at zoom `z`. */
export const placeLabelsQuery = z
  .object({
    z: z.coerce.number().int().min(PLACE_LABEL_ZOOMS.min).max(PLACE_LABEL_ZOOMS.max),
    x0: tile,
    y0: tile,
    x1: tile,
    y1: tile,
  })
  .refine((q) => q.x0 <= q.x1 && q.y0 <= q.y1 && Math.max(q.x1, q.y1) < 2 ** q.z, {
    message: 'Validation.tilesInvalid',
  })
  .refine((q) => (q.x1 - q.x0 + 1) * (q.y1 - q.y0 + 1) <= MAX_LABEL_TILES, { message: 'Validation.tilesInvalid' });
export type PlaceLabelsQuery = z.infer<typeof placeLabelsQuery>;

/** One labelled place: its name as the gazetteer writes it, and where it is (degrees, WGS 84). */
export const placeLabelSchema = z.object({
  name: z.string(),
  latitude: z.number().meta({ description: 'degrees' }),
  longitude: z.number().meta({ description: 'degrees' }),
});
export type PlaceLabel = z.infer<typeof placeLabelSchema>;

/**
 * The answer: at most one place per cell of LABEL_CELL_PX on the map at zoom `z`, so that labels drawn at that zoom
 * do not pile up. Empty where the gazetteer is missing on the server.
 */
export const placeLabelsSchema = z.object({
  z: z.number().int(),
  places: z.array(placeLabelSchema),
});
export type PlaceLabels = z.infer<typeof placeLabelsSchema>;

/** The cell (CSS px at the answer's zoom) that holds at most one label: a short name's width, a line and a half. */
export const LABEL_CELL_PX = { width: 128, height: 40 } as const;
