// The engine's Web Worker: the engine's text protocol over postMessage.
// The page posts one protocol line per message; every line the engine writes comes
// back as one message. Two messages are objects, not lines:
//   {file: PATH, bytes: Uint8Array}  a file for the worker's memory (a variant file,
//                                    an endgame table), where the engine reads it;
//   {build: {variant, ending}}       build the trainer's tables: progress comes back
//                                    as 'info string tables ...' lines, each table as
//                                    {file, bytes}, then 'info string tables done'.
// Messages posted before the wasm is ready wait in a queue.
import init, { WebEngine } from './hexchess_web_engine.js';

const waiting = [];
let engine = null;

function take(data) {
  if (typeof data === 'string') {
    engine.handle(data);
  } else if (data && typeof data.file === 'string') {
    engine.put_file(data.file, new Uint8Array(data.bytes));
  } else if (data && data.build) {
    engine.build_tables(String(data.build.variant), String(data.build.ending));
  } else {
    postMessage('info string error: the worker does not understand ' + JSON.stringify(data));
  }
}

onmessage = (event) => {
  if (engine) {
    take(event.data);
  } else {
    waiting.push(event.data);
  }
};

init().then(() => {
  engine = new WebEngine();
  postMessage('info string worker ready');
  while (waiting.length > 0) {
    take(waiting.shift());
  }
}, (error) => {
  postMessage('info string error: the engine did not load: ' + error);
});
