// The athletes' names and colours of a match, as the link and the kept record give them:
// checked (a colour must be one of the page's own, never a property every object has),
// and the label each athlete is called by: the name, else the colour's name. No DOM.

const ATHLETES = ["A", "B"];
const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]/gu;

export class Setup {
  /** colours: the page's {id: {background, text, name?}}; defaults: {A, B} colour ids. */
  constructor({ colours, defaults, colourNames = {} }) {
    this.colours = colours;
    this.defaults = defaults;
    this.colourNames = colourNames;
    this.name = { A: "", B: "" };
    this.colour = { ...defaults };
  }

  /** The link's name_a, name_b, colour_a, colour_b, else what was kept. */
  read(params, kept) {
    for (const athlete of ATHLETES) {
      const key = athlete.toLowerCase();
      const name = params.get(`name_${key}`) ?? kept?.name?.[athlete];
      this.setName(athlete, typeof name === "string" ? name : "");
      this.setColour(athlete, params.get(`colour_${key}`) ?? kept?.colour?.[athlete]);
    }
    return this;
  }

  /** A name as typed, without control characters (a line break, ESC), lone surrogates
   * or line separators, which the engine refuses in a name. */
  setName(athlete, name) {
    this.name[athlete] = String(name).trim().slice(0, 40).replace(UNPRINTABLE, "").trim();
  }

  /** A known colour, or the athlete's default. */
  setColour(athlete, colour) {
    this.colour[athlete] = this.known(colour) ? colour : this.defaults[athlete];
  }

  known(colour) {
    return typeof colour === "string" && Object.hasOwn(this.colours, colour);
  }

  /** What the athlete is called: the name, else the colour; never the same for both. */
  label(athlete) {
    const own = (a) => this.name[a] || this.colourNames[this.colour[a]] || a;
    const other = athlete === "A" ? "B" : "A";
    return own(athlete) === own(other) ? `${own(athlete)} (${athlete})` : own(athlete);
  }

  labels() {
    return { A: this.label("A"), B: this.label("B") };
  }

  /** Into the link: what differs from the defaults. */
  addParams(params) {
    for (const athlete of ATHLETES) {
      const key = athlete.toLowerCase();
      if (this.name[athlete]) params.set(`name_${key}`, this.name[athlete]);
      if (this.colour[athlete] !== this.defaults[athlete]) params.set(`colour_${key}`, this.colour[athlete]);
    }
  }

  toJSON() {
    return { name: this.name, colour: this.colour };
  }
}
