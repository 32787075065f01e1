/**
 * Just enough of the Google Maps JavaScript API for the store page, typed by
 * hand (no @types/google.maps), and a loader that adds its script only when a
 * page asks for it: without a configured key no request leaves the shop's origin.
 */

export interface LatLngLiteral {
  lat: number;
  lng: number;
}

export interface GoogleMap {
  setCenter(position: LatLngLiteral): void;
  setZoom(zoom: number): void;
  fitBounds?(bounds: unknown): void;
}

export interface GoogleMarker {
  setMap(map: GoogleMap | null): void;
  addListener(event: string, handler: () => void): unknown;
}

export interface GoogleInfoWindow {
  open(options: { map: GoogleMap; anchor?: GoogleMarker }): void;
  close(): void;
}

export interface DirectionsLeg {
  distance?: { text: string };
  duration?: { text: string };
}

export interface DirectionsResult {
  routes: { legs: DirectionsLeg[] }[];
}

export interface GoogleDirectionsRenderer {
  setMap(map: GoogleMap | null): void;
  setDirections(result: DirectionsResult): void;
}

export interface GoogleDirectionsService {
  route(request: { origin: LatLngLiteral; destination: LatLngLiteral; travelMode: string }): Promise<DirectionsResult>;
}

export interface MapsLibraries {
  Map: new (
    element: HTMLElement,
    options: {
      center: LatLngLiteral;
      zoom: number;
      mapTypeControl?: boolean;
      streetViewControl?: boolean;
      fullscreenControl?: boolean;
    },
  ) => GoogleMap;
  Marker: new (options: { map: GoogleMap; position: LatLngLiteral; title: string; label?: string }) => GoogleMarker;
  InfoWindow: new (options: { content: HTMLElement | string; ariaLabel?: string }) => GoogleInfoWindow;
  DirectionsService: new () => GoogleDirectionsService;
  DirectionsRenderer: new (options: { map: GoogleMap; suppressMarkers?: boolean }) => GoogleDirectionsRenderer;
}

interface GoogleMapsNamespace {
  importLibrary?: (name: string) => Promise<Record<string, unknown>>;
}

declare global {
  interface Window {
    google?: { maps?: GoogleMapsNamespace };
    /** Called by the Maps script when the key is refused (invalid, wrong referrer, billing). */
    gm_authFailure?: () => void;
    __harbourMapsReady?: () => void;
  }
}

/** The texts of spec §8, word for word. */
export const MAP_ERRORS = {
  missingKey: 'Missing Google Maps API key. Please provide one.',
  scriptFailed: 'Failed to load Google Maps script. Check your key and restrictions.',
  initFailed: 'Google Maps failed to initialize.',
  mapFailed: 'Failed to create map instance.',
  mapNotReady: 'Map is not ready yet.',
  rendererNotReady: 'Directions renderer not ready.',
  directionsFailed: 'Could not calculate directions. Try again later.',
  locationFailed: 'Unable to fetch your location.',
  geolocationUnsupported: 'Geolocation is not supported by your browser.',
} as const;

export class MapLoadError extends Error {}

/** The options spec §9 gives for the shopper's position. */
export const GEOLOCATION_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 12_000, maximumAge: 60_000 };

export const STORE_MAP_ZOOM = 17;

export const MAPS_SCRIPT_ID = 'google-maps-script';

/** The Maps API's own error codes for a refused key, as it logs them. */
const MAPS_ERROR_CODE = /\b([A-Za-z]+MapError)\b/;

/**
 * Rewrites the Maps API's key errors into words a shopper understands (spec §8:
 * invalid key, referrer restriction and billing get friendlier text).
 */
export function friendlyMapError(raw: string | undefined): string {
  const code = raw?.match(MAPS_ERROR_CODE)?.[1];
  switch (code) {
    case 'InvalidKeyMapError':
    case 'ExpiredKeyMapError':
    case 'MissingKeyMapError':
      return 'The map is unavailable because its access key is not valid. The address and directions link still work.';
    case 'RefererNotAllowedMapError':
      return 'The map is not enabled for this website address yet. The address and directions link still work.';
    case 'BillingNotEnabledMapError':
    case 'OverQuotaMapError':
      return 'The map is temporarily unavailable on our account. The address and directions link still work.';
    default:
      return 'The map could not be shown with this site’s map key. The address and directions link still work.';
  }
}

/** Whether a logged message is one of the Maps API's key errors. */
export function isMapsKeyError(message: string): boolean {
  return MAPS_ERROR_CODE.test(message) && /google|maps/i.test(message);
}

let scriptPromise: Promise<void> | undefined;

function injectScript(apiKey: string): Promise<void> {
  return new Promise((resolve, reject) => {
    window.__harbourMapsReady = () => resolve();
    const script = document.createElement('script');
    script.id = MAPS_SCRIPT_ID;
    script.src = `https://maps.googleapis.com/maps/api/js?${new URLSearchParams({
      key: apiKey,
      v: 'weekly',
      loading: 'async',
      callback: '__harbourMapsReady',
    })}`;
    script.async = true;
    script.onerror = () => reject(new MapLoadError(MAP_ERRORS.scriptFailed));
    document.head.append(script);
  });
}

/**
 * Loads the Maps script once per page and the libraries the store map needs.
 * `retry` drops a failed script so "Try Again" fetches it afresh.
 */
export async function loadMapsLibraries(apiKey: string, options: { retry?: boolean } = {}): Promise<MapsLibraries> {
  if (!apiKey) throw new MapLoadError(MAP_ERRORS.missingKey);
  if (options.retry && !window.google?.maps?.importLibrary) {
    scriptPromise = undefined;
    document.getElementById(MAPS_SCRIPT_ID)?.remove();
  }
  if (!window.google?.maps?.importLibrary) {
    scriptPromise ??= injectScript(apiKey).catch((error: unknown) => {
      scriptPromise = undefined;
      throw error;
    });
    await scriptPromise;
  }
  const importLibrary = window.google?.maps?.importLibrary;
  if (!importLibrary) throw new MapLoadError(MAP_ERRORS.initFailed);
  try {
    const [maps, marker, routes] = await Promise.all([
      importLibrary('maps'),
      importLibrary('marker'),
      importLibrary('routes'),
    ]);
    const libraries = { ...maps, ...marker, ...routes } as Partial<MapsLibraries>;
    if (
      !libraries.Map ||
      !libraries.Marker ||
      !libraries.InfoWindow ||
      !libraries.DirectionsService ||
      !libraries.DirectionsRenderer
    ) {
      throw new MapLoadError(MAP_ERRORS.initFailed);
    }
    return libraries as MapsLibraries;
  } catch {
    throw new MapLoadError(MAP_ERRORS.initFailed);
  }
}

/**
 * Google Maps' documented "directions" URL: works without a key, and asks the
 * shopper's own browser or maps app for their starting point.
 */
export function directionsUrl(location: { latitude: number; longitude: number }): string {
  return `https://www.google.com/maps/dir/?api=1&destination=${location.latitude},${location.longitude}&travelmode=driving`;
}
