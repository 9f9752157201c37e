import type { Permission, ResponseOf, Routes } from '@gatehouse/contracts';
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { IconComponent } from '../components/icon-type';

/** Counts the navigation can show beside entries (api/navigation/counts). */
export type NavigationCounts = ResponseOf<Routes['navigationCounts']>;
/** One count name. */
export type NavCountKey = keyof NavigationCounts;

/**
 * Who may open a route. `protected`: signed in, holding one of the permissions if listed.
 * `public`: anyone. `guest`: signed-out screens; signed-in users go to their start page.
 * `signout`: the sign-out screen, open to everyone; it always signs out.
 */
export type RouteAccess = 'protected' | 'public' | 'guest' | 'signout';

/** One route a feature contributes. Paths have no leading slash. */
export interface FeatureRoute {
  path: string;
  Component: ComponentType;
  access: RouteAccess;
  /** The route needs at least one of these (spec §2.2). */
  permissions?: readonly Permission[];
  /**
   * When the console opens on this route, starts what the screen waits for first (its chunk, its
   * first call) as soon as the console's own script runs, alongside everything else it loads,
   * instead of after the layout has rendered (app/router/preload-route.ts; issue 19). Answers the
   * screen's chunk as it loads (a PageLoader's), so the first render can wait a moment for it.
   */
  preload?: (context: RoutePreloadContext) => Promise<unknown>;
}

/** What a route's preload gets: the console's query cache and the query of the opened URL. */
export interface RoutePreloadContext {
  client: QueryClient;
  search: URLSearchParams;
}

/** A feature's entry in the main navigation (spec §2.3). */
export interface NavEntry {
  id: string;
  /** Message id of the entry's label. */
  messageId: string;
  path: string;
  icon: IconComponent;
  /** The entry shows only to holders of one of these (may differ from the route's). */
  permissions?: readonly Permission[];
  /** Counts shown beside the label, in order. */
  counts?: readonly NavCountKey[];
  /** Other paths on which the entry is the current one. */
  alsoActiveOn?: readonly string[];
}

/** What a feature folder exports from its feature.ts. */
export interface Feature {
  id: string;
  routes: readonly FeatureRoute[];
  nav?: NavEntry;
}
