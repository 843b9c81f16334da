/**
 * The UUID pattern, defined once (issue 25): game, player, tournament and job ids.
 *
 * UUID_PATTERN is the form the service writes and stores: lowercase hex, 8-4-4-4-12, any version.
 * UUID_PATTERN_ANY_CASE accepts the same in any case: for ids that arrive from clients, which the
 * reader lower-cases after the check.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UUID_PATTERN_ANY_CASE = new RegExp(UUID_PATTERN.source, 'i');
