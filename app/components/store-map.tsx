import { useEffect, useRef, useState } from 'react';
import {
  friendlyMapError,
  GEOLOCATION_OPTIONS,
  type GoogleDirectionsRenderer,
  type GoogleInfoWindow,
  type GoogleMap,
  type GoogleMarker,
  isMapsKeyError,
  type LatLngLiteral,
  loadMapsLibraries,
  MAP_ERRORS,
  MapLoadError,
  type MapsLibraries,
  STORE_MAP_ZOOM,
} from '../lib/google-maps.ts';

export interface StoreMapProps {
  apiKey: string;
  store: {
    name: string;
    addressLines: string[];
    phone: string;
    location: { latitude: number; longitude: number };
  };
}

interface MapObjects {
  libraries: MapsLibraries;
  map: GoogleMap;
  storeMarker: GoogleMarker;
  info: GoogleInfoWindow;
  renderer: GoogleDirectionsRenderer;
  userMarker?: GoogleMarker;
}

/** The info window's content, built as DOM nodes so nothing is parsed as HTML. */
function infoWindowContent(store: StoreMapProps['store']): HTMLElement {
  const box = document.createElement('div');
  box.style.cssText = 'font: 14px/1.4 system-ui, sans-serif; color: #111827; max-width: 16rem';
  const name = document.createElement('strong');
  name.textContent = store.name;
  box.append(name);
  for (const line of store.addressLines) {
    const row = document.createElement('div');
    row.textContent = line;
    box.append(row);
  }
  const phone = document.createElement('a');
  phone.href = `tel:${store.phone.replace(/[^\d+]/g, '')}`;
  phone.textContent = store.phone;
  phone.style.color = '#213c63';
  box.append(phone);
  return box;
}

/**
 * The interactive store map (spec §2 /store-locations): Google map at zoom 17
 * with a marker and info window; "Show My Location & Directions" adds a
 * "Your Location" marker and the driving route with distance and time;
 * "Reset View" clears it; "Try Again" reloads the map after a failure.
 * Rendered only when a Maps key is configured; the script loads on mount.
 */
export function StoreMap({ apiKey, store }: StoreMapProps) {
  const containerRef = useRef<HTMLElement>(null);
  const objects = useRef<MapObjects | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [mapError, setMapError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [route, setRoute] = useState<{ distance: string; duration: string } | null>(null);
  const [locating, setLocating] = useState(false);

  const { latitude, longitude } = store.location;
  const storeName = store.name;
  const addressKey = store.addressLines.join('\n');
  const phone = store.phone;

  useEffect(() => {
    let cancelled = false;
    const storePosition: LatLngLiteral = { lat: latitude, lng: longitude };
    const storeDetails = {
      name: storeName,
      addressLines: addressKey.split('\n'),
      phone,
      location: { latitude, longitude },
    };
    // The Maps API reports a refused key only by logging its error code and calling gm_authFailure;
    // keep the last code so the shopper gets words instead of a code (spec §8).
    let lastKeyError: string | undefined;
    const originalConsoleError = console.error;
    const watchingConsoleError = (...args: unknown[]) => {
      const text = args.map(String).join(' ');
      if (isMapsKeyError(text)) lastKeyError = text;
      originalConsoleError.apply(console, args);
    };
    console.error = watchingConsoleError;
    let authFailed = false;
    window.gm_authFailure = () => {
      authFailed = true;
      if (cancelled) return;
      setMapError(friendlyMapError(lastKeyError));
      setStatus('error');
    };

    setStatus('loading');
    setMapError(null);
    loadMapsLibraries(apiKey, { retry: attempt > 0 })
      .then((libraries) => {
        if (cancelled || authFailed || !containerRef.current) return;
        let map: GoogleMap;
        try {
          map = new libraries.Map(containerRef.current, {
            center: storePosition,
            zoom: STORE_MAP_ZOOM,
            mapTypeControl: false,
            streetViewControl: false,
          });
        } catch {
          setMapError(MAP_ERRORS.mapFailed);
          setStatus('error');
          return;
        }
        const storeMarker = new libraries.Marker({ map, position: storePosition, title: storeName });
        const info = new libraries.InfoWindow({ content: infoWindowContent(storeDetails), ariaLabel: storeName });
        info.open({ map, anchor: storeMarker });
        storeMarker.addListener('click', () => info.open({ map, anchor: storeMarker }));
        // Our own markers stand for both ends of the route, so the renderer draws only the line.
        const renderer = new libraries.DirectionsRenderer({ map, suppressMarkers: true });
        objects.current = { libraries, map, storeMarker, info, renderer };
        // The key can be refused after the map exists (Google checks it in the background).
        if (!authFailed) setStatus('ready');
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        setMapError(error instanceof MapLoadError ? error.message : MAP_ERRORS.initFailed);
        setStatus('error');
      });

    return () => {
      cancelled = true;
      if (console.error === watchingConsoleError) console.error = originalConsoleError;
      window.gm_authFailure = undefined;
      const current = objects.current;
      if (current) {
        current.userMarker?.setMap(null);
        current.storeMarker.setMap(null);
        current.renderer.setMap(null);
        current.info.close();
      }
      objects.current = null;
    };
  }, [apiKey, attempt, latitude, longitude, storeName, addressKey, phone]);

  function showDirections() {
    setNotice(null);
    if (!('geolocation' in navigator)) {
      setNotice(MAP_ERRORS.geolocationUnsupported);
      return;
    }
    const current = objects.current;
    if (!current || status !== 'ready') {
      setNotice(MAP_ERRORS.mapNotReady);
      return;
    }
    if (!current.renderer) {
      setNotice(MAP_ERRORS.rendererNotReady);
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      async (position) => {
        const live = objects.current;
        if (!live) {
          setLocating(false);
          return;
        }
        const origin = { lat: position.coords.latitude, lng: position.coords.longitude };
        live.userMarker?.setMap(null);
        live.userMarker = new live.libraries.Marker({ map: live.map, position: origin, title: 'Your Location' });
        try {
          const result = await new live.libraries.DirectionsService().route({
            origin,
            destination: { lat: latitude, lng: longitude },
            travelMode: 'DRIVING',
          });
          const leg = result.routes[0]?.legs[0];
          if (!leg) throw new Error('no route');
          live.renderer.setDirections(result);
          setRoute({ distance: leg.distance?.text ?? '', duration: leg.duration?.text ?? '' });
        } catch {
          setRoute(null);
          setNotice(MAP_ERRORS.directionsFailed);
        } finally {
          setLocating(false);
        }
      },
      () => {
        setLocating(false);
        setNotice(MAP_ERRORS.locationFailed);
      },
      GEOLOCATION_OPTIONS,
    );
  }

  function resetView() {
    setNotice(null);
    setRoute(null);
    const current = objects.current;
    if (!current) return;
    current.userMarker?.setMap(null);
    current.userMarker = undefined;
    // A renderer cannot be emptied, only detached: swap in a fresh one.
    current.renderer.setMap(null);
    current.renderer = new current.libraries.DirectionsRenderer({ map: current.map, suppressMarkers: true });
    current.map.setCenter({ lat: latitude, lng: longitude });
    current.map.setZoom(STORE_MAP_ZOOM);
    current.info.open({ map: current.map, anchor: current.storeMarker });
  }

  function tryAgain() {
    setNotice(null);
    setRoute(null);
    setAttempt((count) => count + 1);
  }

  return (
    <div>
      <div className="relative overflow-hidden rounded-lg border border-gray-200 bg-navy-100">
        <section
          ref={containerRef}
          className="h-80 w-full sm:h-[28rem]"
          aria-label={`Map showing ${storeName}`}
          data-testid="store-map"
        />
        {status === 'loading' ? (
          <p className="absolute inset-0 flex items-center justify-center text-sm font-semibold text-navy-800">
            Loading map…
          </p>
        ) : null}
        {status === 'error' && mapError ? (
          <div
            role="alert"
            className="absolute inset-0 flex flex-col items-center justify-center gap-4 bg-white/95 p-6 text-center"
          >
            <p className="max-w-md font-semibold text-ink">{mapError}</p>
            <button
              type="button"
              onClick={tryAgain}
              className="rounded bg-navy-800 px-4 py-2 font-semibold text-white hover:bg-navy-700"
            >
              Try Again
            </button>
          </div>
        ) : null}
      </div>

      <div className="mt-4 flex flex-wrap gap-3">
        <button
          type="button"
          onClick={showDirections}
          disabled={locating}
          aria-busy={locating}
          className="rounded bg-accent px-4 py-2.5 font-semibold text-ink hover:bg-accent-dark disabled:cursor-wait disabled:opacity-70"
        >
          Show My Location &amp; Directions
        </button>
        <button
          type="button"
          onClick={resetView}
          className="rounded border border-navy-800 px-4 py-2.5 font-semibold text-navy-800 hover:bg-navy-100"
        >
          Reset View
        </button>
      </div>

      <div role="status" className="mt-3 min-h-6 text-sm">
        {locating ? <p>Finding your location…</p> : null}
        {!locating && route ? (
          <p className="font-semibold text-ink" data-testid="route-summary">
            Driving route: {route.distance}
            {route.duration ? `, about ${route.duration}` : ''}
          </p>
        ) : null}
        {!locating && notice ? <p className="font-semibold text-sale">{notice}</p> : null}
      </div>
    </div>
  );
}
