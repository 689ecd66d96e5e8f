/**
 * The page's own script (plain browser JavaScript, run after the inlined Chart.js): it draws each
 * chart spec with Chart.js, maps the specs' named axis formats to tick formatters, and draws the
 * min–max whiskers of repeated runs. Animations are off so a chart is complete once drawn (and a
 * screenshot or a printout shows it whole); `window.docbenchCharts` counts what was drawn.
 */
export const CHART_SCRIPT = String.raw`
(function () {
  'use strict';
  var specs = JSON.parse(document.getElementById('docbench-charts').textContent);
  var palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
  function latency(us) {
    var short = function (v) { return Number(v.toPrecision(3)).toLocaleString('en-US'); };
    if (us >= 1e6) return short(us / 1e6) + ' s';
    if (us >= 1e3) return short(us / 1e3) + ' ms';
    return Math.round(us) + ' µs';
  }
  var formats = {
    number: function (v) { return Number(v).toLocaleString('en-US', { maximumFractionDigits: 1 }); },
    percent: function (v) { return Number(v).toLocaleString('en-US', { maximumFractionDigits: 1 }) + '%'; },
    seconds: function (v) { return Number(Number(v).toPrecision(6)) + ' s'; },
    latency: function (v) { var d = Math.log10(v); return Math.abs(d - Math.round(d)) < 1e-9 || Math.abs(Math.log10(v / 2) - Math.round(Math.log10(v / 2))) < 1e-9 || Math.abs(Math.log10(v / 5) - Math.round(Math.log10(v / 5))) < 1e-9 ? latency(v) : ''; },
    // x = 1/(1-p): label the decades (90%, 99%, 99.9% …) and 50%.
    percentile: function (v) {
      var d = Math.log10(v);
      if (v === 1) return '0%';
      if (Math.abs(v - 2) < 1e-9) return '50%';
      if (Math.abs(d - Math.round(d)) > 1e-9) return '';
      return (100 - 100 / v).toFixed(Math.max(0, Math.round(d) - 2)) + '%';
    }
  };
  var whiskers = {
    id: 'docbenchWhiskers',
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx;
      chart.data.datasets.forEach(function (dataset, i) {
        if (!dataset.ranges) return;
        var meta = chart.getDatasetMeta(i);
        if (meta.hidden) return;
        var y = chart.scales[meta.yAxisID];
        ctx.save();
        ctx.strokeStyle = '#222';
        ctx.lineWidth = 1;
        meta.data.forEach(function (element, j) {
          var range = dataset.ranges[j];
          if (!range) return;
          var top = y.getPixelForValue(range[1]);
          var bottom = y.getPixelForValue(range[0]);
          ctx.beginPath();
          ctx.moveTo(element.x, top); ctx.lineTo(element.x, bottom);
          ctx.moveTo(element.x - 4, top); ctx.lineTo(element.x + 4, top);
          ctx.moveTo(element.x - 4, bottom); ctx.lineTo(element.x + 4, bottom);
          ctx.stroke();
        });
        ctx.restore();
      });
    }
  };
  function axis(a, horizontal) {
    var scale = { type: a.scale, title: { display: true, text: a.title } };
    var format = a.format && formats[a.format];
    // On a log axis label only 1, 2 and 5 of each decade, as a printed log chart does.
    if (format && a.scale === 'logarithmic' && a.format === 'number') format = function (v) { var m = v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9)); return [1, 2, 5].some(function (k) { return Math.abs(m - k) < 1e-6; }) ? formats.number(v) : ''; };
    if (format && a.scale !== 'category') scale.ticks = { callback: function (value) { return format(value); } };
    if (scale.ticks && a.scale === 'logarithmic') scale.ticks.autoSkip = false;
    if (!horizontal && a.scale === 'linear') scale.beginAtZero = true;
    // Thread and record counts are whole numbers: no 1.5-thread ticks.
    if (horizontal && a.scale === 'linear' && a.format === 'number') scale.ticks = Object.assign(scale.ticks || {}, { precision: 0 });
    return scale;
  }
  var drawn = 0;
  specs.forEach(function (spec) {
    var canvas = document.getElementById(spec.id);
    var groups = [];
    var datasets = spec.datasets.map(function (d, i) {
      var slot = i;
      if (d.group !== undefined) { slot = groups.indexOf(d.group); if (slot < 0) { groups.push(d.group); slot = groups.length - 1; } }
      var color = palette[slot % palette.length];
      return { label: d.label, data: d.data, ranges: d.ranges, borderColor: color, backgroundColor: spec.type === 'bar' ? color + 'cc' : color,
        borderDash: d.dashed ? [6, 4] : undefined, pointRadius: spec.type === 'line' ? (d.pointStyles ? 5 : 2) : undefined, borderWidth: spec.type === 'line' ? 2 : 1, spanGaps: true,
        hidden: d.hidden === true, pointStyle: d.pointStyles || undefined };
    });
    new Chart(canvas, {
      type: spec.type,
      data: { labels: spec.labels, datasets: datasets },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        parsing: spec.labels ? undefined : { xAxisKey: 'x', yAxisKey: 'y' },
        plugins: {
          title: { display: true, text: spec.title, font: { size: 14 } },
          subtitle: { display: true, text: spec.subtitle, font: { size: 12 }, color: '#333', padding: { bottom: 8 } },
          legend: { position: 'bottom' },
          // The exact figure the tables print (µs), at the exact percentile of the point.
          tooltip: { callbacks: spec.y.format === 'latency' ? { label: function (c) { return c.dataset.label + ': ' + Math.round(c.parsed.y).toLocaleString('en-US') + ' µs at p' + Number((100 - 100 / c.parsed.x).toFixed(6)).toLocaleString('en-US', { maximumFractionDigits: 6 }); } } : {} }
        },
        scales: { x: axis(spec.x, true), y: axis(spec.y, false) }
      },
      plugins: [whiskers]
    });
    drawn += 1;
  });
  window.docbenchCharts = { expected: specs.length, drawn: drawn };
})();
`;
