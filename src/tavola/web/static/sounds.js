// The board's sounds, made with the Web Audio API (no sound files): a checker set down is a short
// knock of filtered noise, the dice a rattle of a few quicker clicks. Off until the player turns them
// on (the page keeps the choice in localStorage); a browser without Web Audio stays silent.

let context = null;

// How many sounds the page has made, of each kind (the tests read it).
export const made = { checker: 0, dice: 0 };

function audio() {
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return null;
  if (!context) context = new Audio();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

// Ready the sounds from a player's gesture (a click on the switch): browsers let a page sound only then.
export function wake() {
  audio();
}

// A burst of noise through a band-pass filter, dying away in `length` seconds, `at` seconds from now.
function knock(sound, at, pitch, length, loudness) {
  const start = sound.currentTime + at;
  const samples = Math.ceil(sound.sampleRate * length);
  const buffer = sound.createBuffer(1, samples, sound.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < samples; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / samples) ** 3;
  const source = sound.createBufferSource();
  source.buffer = buffer;
  const filter = sound.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = pitch;
  filter.Q.value = 4;
  const gain = sound.createGain();
  gain.gain.setValueAtTime(loudness, start);
  gain.gain.exponentialRampToValueAtTime(0.001, start + length);
  source.connect(filter).connect(gain).connect(sound.destination);
  source.start(start);
  source.stop(start + length);
}

// A checker set down on the board.
export function checker() {
  const sound = audio();
  if (!sound) return;
  made.checker += 1;
  knock(sound, 0, 900, 0.07, 0.9);
}

// The dice rolled: two dice knocking against each other and the board.
export function dice() {
  const sound = audio();
  if (!sound) return;
  made.dice += 1;
  [0, 0.05, 0.11, 0.16, 0.24].forEach((at, i) => knock(sound, at, 2200 + 500 * (i % 2), 0.04, 0.5));
}
