-- What every Neovim test here shares: counted checks, output, the running clients, writing a
-- file, and the exit status. Each test loads it with dofile from the repository's root, as
-- editors/run-tests.sh runs them.

local M = { failures = 0, checks = 0 }

function M.say(message)
  io.stdout:write(message .. "\n")
end

-- vim.lsp.get_clients (0.10+) replaces get_active_clients, deprecated on 0.11.
function M.all_clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients()
  end
  return vim.lsp.get_active_clients()
end

-- Counts a check; says what failed. Returns the condition.
function M.check(condition, message)
  M.checks = M.checks + 1
  if not condition then
    M.failures = M.failures + 1
    M.say("FAIL: " .. message)
  end
  return condition
end

--- The server binary from $HIGHLIGHT_LS (default: `highlight-ls` on PATH), or nil, with a
--- failure recorded, when it is not executable.
function M.server_binary()
  local binary = os.getenv("HIGHLIGHT_LS")
  if binary == nil or binary == "" then
    binary = "highlight-ls"
  end
  if vim.fn.executable(binary) ~= 1 then
    M.say("FAIL: highlight-ls binary not executable: " .. binary .. " (set HIGHLIGHT_LS)")
    M.failures = M.failures + 1
    return nil
  end
  return binary
end

function M.write_file(path, text)
  local file = assert(io.open(path, "wb"))
  file:write(text)
  file:close()
end

-- A new workspace folder (its real path) holding `config` as its .highlights.json.
function M.workspace(config)
  local folder = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(folder, "p")
  M.write_file(folder .. "/.highlights.json", config)
  return folder
end

-- A fixed dark backdrop, so translucent colours blend the same on every Neovim version.
function M.dark_backdrop()
  vim.o.background = "dark"
  vim.api.nvim_set_hl(0, "Normal", { fg = "#ffffff", bg = "#000000" })
end

-- Prints the outcome under `name` and quits with status 1 when any check failed. With
-- `stop_clients`, the servers are stopped first and given two seconds to exit.
function M.finish(name, stop_clients)
  if stop_clients then
    vim.lsp.stop_client(M.all_clients())
    vim.wait(2000, function()
      return #M.all_clients() == 0
    end, 20)
  end
  if M.failures > 0 then
    M.say(string.format("%s: FAILED (%d of %d checks failed)", name, M.failures, M.checks))
    vim.cmd("cquit 1")
  else
    M.say(string.format("%s: ok (%d checks)", name, M.checks))
    vim.cmd("qall!")
  end
end

return M
