/// The page of `plumometer serve`: the seed's picture in a browser. HTML, CSS and JavaScript served from the binary
/// (no outside resources: it works offline, and the Content-Security-Policy `default-src 'self'` allows nothing
/// inline, so the style and the script are resources of their own).
///
/// It follows `/readings` (an `EventSource`, which reconnects by itself: "disconnected" meanwhile) and draws the pad
/// to scale from the device record's position axes, a circle per contact at its place whose area grows with its
/// force (the heaviest's the largest), labelled with its name (`#419`), percent and grams as the stream writes them, the heaviest filled yellow,
/// stable contacts ringed solid (dashed while settling, and ` =` after the label as in the text format); the total, where the grams come from, and buttons for tare, clear and carrier (POSTs to
/// `/api/...`, answered with the new state).
public enum ServePage {
    public static let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>plumometer</title>
        <link rel="stylesheet" href="/plumometer.css">
        <script src="/plumometer.js" defer></script>
        </head>
        <body>
        <header>
        <h1>plumometer</h1>
        <span id="connection" class="connection">connecting</span>
        </header>
        <p id="device" class="device">waiting for a device</p>
        <p id="source" class="source"></p>
        <svg id="pad" class="pad" role="img" aria-label="the pad, a circle per contact" \
        xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 100" preserveAspectRatio="xMidYMid meet">
        <rect id="surface" class="surface" x="0" y="0" width="160" height="100" rx="3"></rect>
        <g id="contacts"></g>
        </svg>
        <p class="total">total <strong id="total">–</strong></p>
        <ul id="list" class="list"></ul>
        <nav class="buttons">
        <button id="tare" type="button" title="zero what rests on the pad now (t)">tare</button>
        <button id="clear" type="button" title="remove every tare (c)">clear</button>
        <button id="carrier" type="button" title="tare the one contact down as a carrier (k)">carrier</button>
        </nav>
        <p id="status" class="status" aria-live="polite"></p>
        </body>
        </html>

        """

    public static let css = """
        :root { color-scheme: light dark; --fg: #1d1d1f; --bg: #f5f5f7; --pad: #e3e3e8; --edge: #a1a1aa;
          --contact: #7aa6d8; --heaviest: #ffd400; }
        @media (prefers-color-scheme: dark) { :root { --fg: #f2f2f2; --bg: #16161a; --pad: #2a2a31; --edge: #5b5b66; } }
        * { box-sizing: border-box; }
        body { margin: 0 auto; padding: 0.75rem; max-width: 60rem; font: 16px/1.4 system-ui, sans-serif;
          color: var(--fg); background: var(--bg); }
        header { display: flex; align-items: baseline; justify-content: space-between; gap: 1rem; }
        h1 { font-size: 1.25rem; margin: 0; }
        .connection { font-size: 0.9rem; padding: 0.1rem 0.5rem; border-radius: 1rem; background: #2e7d32; color: #fff; }
        .connection.down { background: #c62828; }
        .device, .source, .status { margin: 0.3rem 0; font-size: 0.95rem; }
        .source { opacity: 0.8; }
        .pad { display: block; width: 100%; height: auto; max-height: 70vh; margin: 0.5rem 0; }
        .surface { fill: var(--pad); stroke: var(--edge); stroke-width: 0.4; }
        .contact { fill: var(--contact); fill-opacity: 0.85; stroke: var(--fg); stroke-width: 0.3; stroke-dasharray: 1 1; }
        .contact.heaviest { fill: var(--heaviest); fill-opacity: 1; }
        .contact.stable { stroke-width: 0.8; stroke-dasharray: none; }
        .label { fill: var(--fg); font-size: 3.5px; text-anchor: middle; paint-order: stroke; stroke: var(--pad);
          stroke-width: 0.8px; }
        .total { font-size: 1.3rem; margin: 0.3rem 0; }
        .list { list-style: none; padding: 0; margin: 0.3rem 0; display: flex; flex-wrap: wrap; gap: 0.4rem 1rem; }
        .list li { font-variant-numeric: tabular-nums; }
        .list li.heaviest { font-weight: bold; }
        .buttons { display: flex; gap: 0.5rem; flex-wrap: wrap; }
        button { font: inherit; padding: 0.5rem 1.2rem; min-width: 6rem; border-radius: 0.5rem;
          border: 1px solid var(--edge); background: var(--pad); color: var(--fg); }
        button:active { transform: translateY(1px); }
        @media (max-width: 30rem) { body { font-size: 15px; } button { flex: 1; } }

        """

    public static let script = """
        "use strict";
        (() => {
          const SVG = "http://www.w3.org/2000/svg";
          const $ = (id) => document.getElementById(id);
          let axes = null;

          function axis(a) {
            const resolution = a.resolution > 0 ? a.resolution : 1;
            return { min: a.min, size: (a.max - a.min) / resolution, resolution };
          }

          function showDevice(device) {
            $("device").textContent = device ? device.name + " (" + device.device + ")" : "waiting for a device";
            if (!device) { $("source").textContent = ""; clearContacts(); return; }
            let source;
            if (device.sensing === "contact-size") source = "contact area, not weight: percent only";
            else if (device.grams_from === "calibration") source = "grams from the calibration profile " + device.profile;
            else if (device.grams_from === "resolution") source = "grams from the device's own units";
            else source = "percent only: calibrate the device for grams (plumometer calibrate)";
            $("source").textContent = source;
            axes = device.position ? { x: axis(device.position.x), y: axis(device.position.y) } : null;
            const width = axes ? axes.x.size : 160, height = axes ? axes.y.size : 100;
            $("pad").setAttribute("viewBox", "0 0 " + width + " " + height);
            for (const [name, value] of [["width", width], ["height", height]]) $("surface").setAttribute(name, value);
            $("surface").setAttribute("rx", Math.min(width, height) * 0.03);
          }

          function clearContacts() {
            $("contacts").replaceChildren();
            $("list").replaceChildren();
            $("total").textContent = "–";
          }

          function label(c) {
            let text = "#" + c.id + " " + c.percent.toFixed(1) + "%";
            if (c.grams !== null && c.grams !== undefined) text += " " + c.grams.toFixed(2) + " g";
            return text;
          }

          function showFrame(frame) {
            if (!frame) { clearContacts(); return; }
            const group = $("contacts"), list = $("list");
            const width = axes ? axes.x.size : 160, height = axes ? axes.y.size : 100;
            const largest = Math.min(width, height) * 0.18, smallest = Math.min(width, height) * 0.025;
            const circles = [], labels = [], items = [];
            frame.contacts.forEach((c, index) => {
              let x, y;
              if (axes && c.x !== null && c.y !== null) {
                x = (c.x - axes.x.min) / axes.x.resolution;
                y = (c.y - axes.y.min) / axes.y.resolution;
              } else {
                x = width * (index + 1) / (frame.contacts.length + 1);
                y = height / 2;
              }
              // The area grows with the force (as a ratio to the heaviest's, the largest circle): the radius with
              // its square root.
              const r = Math.max(smallest, largest * Math.sqrt(Math.max(0, Math.min(1, c.ratio))));
              const circle = document.createElementNS(SVG, "circle");
              circle.setAttribute("class", "contact" + (c.heaviest ? " heaviest" : "") + (c.stable ? " stable" : ""));
              circle.setAttribute("cx", x.toFixed(2));
              circle.setAttribute("cy", y.toFixed(2));
              circle.setAttribute("r", r.toFixed(2));
              circle.dataset.id = c.id;
              const text = document.createElementNS(SVG, "text");
              text.setAttribute("class", "label");
              text.setAttribute("x", x.toFixed(2));
              text.setAttribute("y", (y - r - 1.5).toFixed(2));
              text.dataset.id = c.id;
              text.textContent = label(c) + (c.stable ? " =" : "");
              circles.push(circle);
              labels.push(text);
              const item = document.createElement("li");
              if (c.heaviest) item.className = "heaviest";
              item.dataset.id = c.id;
              item.textContent = label(c) + (c.heaviest ? " heaviest" : "") + (c.stable ? " stable" : "");
              items.push(item);
            });
            // The labels over every circle, so a large circle never hides a neighbour's name.
            group.replaceChildren(...circles, ...labels);
            group.dataset.seq = frame.seq;
            list.replaceChildren(...items);
            $("total").textContent = frame.total_grams !== undefined
              ? frame.total_grams.toFixed(2) + " g"
              : frame.contacts.reduce((sum, c) => sum + c.percent, 0).toFixed(1) + "%";
          }

          function showState(state) {
            showDevice(state.device);
            showFrame(state.frame);
            if (state.status) $("status").textContent = state.status;
          }

          function connect() {
            const events = new EventSource("/readings");
            events.addEventListener("open", () => {
              $("connection").textContent = "live";
              $("connection").classList.remove("down");
            });
            events.addEventListener("error", () => {
              $("connection").textContent = "disconnected";
              $("connection").classList.add("down");
            });
            events.addEventListener("device", (e) => { showDevice(JSON.parse(e.data)); clearContacts(); });
            events.addEventListener("frame", (e) => showFrame(JSON.parse(e.data)));
            events.addEventListener("removed", () => { showDevice(null); $("status").textContent = "device removed"; });
          }

          async function act(action) {
            try {
              const answer = await fetch("/api/" + action, { method: "POST" });
              if (!answer.ok) { $("status").textContent = (await answer.text()).trim(); return; }
              showState(await answer.json());
            } catch (error) {
              $("status").textContent = "disconnected: " + action + " was not sent";
            }
          }

          for (const action of ["tare", "clear", "carrier"]) $(action).addEventListener("click", () => act(action));
          connect();
        })();

        """
}
