// The sounds of the cards: off by default, synthesized (no audio files), one context a page.

let AUDIO = null;
const SOUNDS = { // [frequencies, seconds, wave, gain]
  move: [[660], 0.05, "triangle", 0.04],
  deal: [[520], 0.04, "sine", 0.04],
  bad: [[190, 150], 0.09, "square", 0.015],
  win: [[523, 659, 784, 1047], 0.22, "sine", 0.05],
};

export function play(sound) {
  const [freqs, dur, type, gain] = SOUNDS[sound];
  try {
    AUDIO = AUDIO || new AudioContext();
    const t0 = AUDIO.currentTime + 0.01;
    freqs.forEach((f, i) => {
      const osc = AUDIO.createOscillator();
      const amp = AUDIO.createGain();
      const t = t0 + i * 0.1;
      osc.type = type;
      osc.frequency.value = f;
      amp.gain.setValueAtTime(0.0001, t);
      amp.gain.exponentialRampToValueAtTime(gain, t + 0.01);
      amp.gain.exponentialRampToValueAtTime(0.0001, t + dur);
      osc.connect(amp).connect(AUDIO.destination);
      osc.start(t);
      osc.stop(t + dur + 0.02);
    });
  } catch {
    /* no WebAudio here: silence */
  }
}
