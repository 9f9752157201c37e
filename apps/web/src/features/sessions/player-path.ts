/**
 * The player's route for a session (features/player reads :id and picks the player): watching a
 * live SSH session, or replaying a session from its start (view=replay).
 */
export function playerPath(id: string, live: boolean): string {
  return live ? `/recordings/${id}` : `/recordings/${id}?view=replay`;
}
