// The engine's Web Worker: the engine's text protocol over postMessage.
// The page posts one protocol line per message; every line the engine writes comes
// back as one message. Lines posted before the wasm is ready wait in a queue.
import init, { WebEngine } from './hexchess_web_engine.js';

const waiting = [];
let engine = null;

onmessage = (event) => {
  if (engine) {
    engine.handle(String(event.data));
  } else {
    waiting.push(String(event.data));
  }
};

init().then(() => {
  engine = new WebEngine();
  postMessage('info string worker ready');
  while (waiting.length > 0) {
    engine.handle(waiting.shift());
  }
}, (error) => {
  postMessage('info string error: the engine did not load: ' + error);
});
