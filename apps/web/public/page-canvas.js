// Paints the page's canvas in the console's mode before the browser's first paint: a plain script
// in <head>, which the browser runs before it paints, where the console's own code (a module) comes
// later and its first render later still. The console repaints the canvas from then on
// (src/app/theme/page-canvas.ts); src/app/theme/page-canvas.test.tsx checks that the two agree.
/* global document, location */
(function () {
  'use strict';
  var canvas = { dark: '#1b1b1f', 'semi-dark': '#f4f6fb', light: '#f4f6fb' };
  function known(mode) {
    return typeof mode === 'string' && Object.prototype.hasOwnProperty.call(canvas, mode) ? mode : undefined;
  }
  function fromQuery(query) {
    return known(new URLSearchParams(query).get('theme_mode'));
  }
  var mode = 'dark';
  try {
    mode = known(JSON.parse(localStorage.getItem('themeSettings') || '{}').mode) || mode;
  } catch {
    // No readable saved settings (blocked storage, a damaged value): the default mode.
  }
  var hash = location.hash;
  var at = hash.indexOf('?');
  mode = (at < 0 ? undefined : fromQuery(hash.slice(at + 1))) || fromQuery(location.search) || mode;
  document.documentElement.style.backgroundColor = canvas[mode];
  document.documentElement.style.colorScheme = mode === 'dark' ? 'dark' : 'light';
})();
