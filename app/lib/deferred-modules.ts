/*
 * The page's JavaScript is fetched after its first paint. React Router writes
 * `<link rel="modulepreload">` for every module a page needs and one inline module script that
 * imports them and hydrates; the browser fetches all of them at once with the HTML, so on a
 * phone on a slow network 140 kB of JavaScript shares the line with the stylesheet and the
 * HTML the first paint waits for (Lighthouse's slow 4G: first paint 2.1–2.4 s with them, about
 * 1.5 s without). The server writes them inert (entry.server.tsx, deferred-modules.server.ts);
 * these scripts bring them back once the page has painted. Every catalogue page works without
 * JavaScript meanwhile: links, the search form and the filter forms are plain HTML.
 */

/** The `rel` the server gives module preloads until the page has painted. */
export const DEFERRED_PRELOAD_REL = 'x-modulepreload';
/** The `type` the server gives React Router's module script until the page has painted. */
export const DEFERRED_MODULE_TYPE = 'x-module';

/**
 * In the head: defines the restore. Each preload and the module script come back as new
 * elements with every attribute of the old (a script only runs when inserted; the nonce is
 * copied by property, since the browser hides the attribute), so the page's
 * Content-Security-Policy allows them by nonce or, on a cached page, by the script's hash.
 * It runs once, when the browser reports its first paint (a `paint` performance entry, not a
 * timer: no frame or timeout to wait on, and a page whose clock a test has frozen still
 * hydrates). Where paint entries are unknown, or the tab is hidden and will not paint, it runs
 * at once, and a tab hidden before its paint runs it then. DOMContentLoaded asks again in case
 * the call after the shell never ran. `load` does not run it: on a busy machine the page can
 * finish loading before the browser has painted, and fetching then is what this is here to
 * avoid (layout.test.ts caught it). Three seconds after `load`, with still no paint reported,
 * it runs anyway, so a page always hydrates.
 */
export const DEFINE_MODULE_RESTORE = `(function(){var done=false;function copy(from,to,skip){for(var i=0;i<from.attributes.length;i++){var a=from.attributes[i];if(a.name!==skip&&a.name!=='nonce')to.setAttribute(a.name,a.value)}to.nonce=from.nonce}function go(){if(done)return;done=true;document.querySelectorAll('link[rel="${DEFERRED_PRELOAD_REL}"]').forEach(function(l){var n=document.createElement('link');copy(l,n,'rel');n.rel='modulepreload';l.replaceWith(n)});document.querySelectorAll('script[type="${DEFERRED_MODULE_TYPE}"]').forEach(function(s){var n=document.createElement('script');copy(s,n,'type');n.type='module';n.textContent=s.textContent;s.replaceWith(n)})}var watching=false;window.restoreDeferredModules=function(){var P=window.PerformanceObserver;if(done||watching)return;if(document.visibilityState==='hidden'||!P||!P.supportedEntryTypes||P.supportedEntryTypes.indexOf('paint')<0)return go();watching=true;var o=new P(function(){o.disconnect();go()});o.observe({type:'paint',buffered:true})};document.addEventListener('DOMContentLoaded',window.restoreDeferredModules);document.addEventListener('visibilitychange',function(){if(document.visibilityState==='hidden')go()});window.addEventListener('load',function(){window.restoreDeferredModules();setTimeout(go,3000)})})()`;

/**
 * Right after React Router's scripts, at the end of the page's shell: the module script is in
 * the document now, and what streams in later (deferred sections) need not be waited for.
 */
export const RESTORE_AFTER_SHELL = 'window.restoreDeferredModules()';
